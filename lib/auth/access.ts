// Who may do what: one table from principal to scopes and one check, used by route handlers,
// server actions and pages alike. The read-only flag is part of the check, so a page that
// hides a button and the server that refuses the call can never disagree.
import { API_SCOPES, type Actor, type ApiScope } from "./actor";
import { Forbidden } from "../errors";

export type Scope =
  /** Agents send runs and conversations. */
  | "runs:write"
  /** Agents ask for the skills and persona to inject. */
  | "context:read"
  /** Agents, classes, skills, promotion reports, runs and traces. */
  | "learning:read"
  /** Review decisions, distill, promotion cycles, agent declarations and deletion, learning settings. */
  | "learning:write"
  /** Bulk exports of runs (private text in bulk): admins and admin keys, allowed in read-only mode. */
  | "runs:export"
  | "ledger:read"
  /** Persona profiles hold private goals: admins only, never viewers. */
  | "persona:read"
  /** Approve or dismiss persona proposals: also needs PROCTOR_PERSONA_ACTIONS=1. */
  | "persona:decide"
  | "audit:read"
  | "users:read"
  | "users:manage"
  | "apiKeys:read"
  | "apiKeys:manage"
  /** Webhook endpoints and their deliveries (signing secrets are shown once, at creation). */
  | "webhooks:read"
  | "webhooks:manage"
  /** Agents propose ledger procedures; never with ledger:evaluate on one key (README "API keys"). */
  | "ledger:propose"
  /** Evaluators record paired evaluations, as the one evaluator_id their key is bound to. */
  | "ledger:evaluate"
  /** Forget an account: its conversations, persona and the private fields of its runs (README "Forgetting and retention"). */
  | "accounts:forget"
  /** Experiments and their reports: case requests and answers are run data, as learning:read shows. */
  | "experiments:read"
  /** Agents run experiments: pull assignments, ask an arm's context, report runs. */
  | "experiments:run"
  /** Create, complete (which records paired evaluations in the ledger) and cancel experiments. */
  | "experiments:manage"
  /** A console user changes their own password. */
  | "own:password";

export type Principal = "ADMIN" | "VIEWER" | "key:ingest" | "key:admin" | "key:ledger:propose" | "key:ledger:evaluate";

const INGEST_KEY: readonly Scope[] = ["runs:write", "context:read", "learning:read", "ledger:read", "experiments:read", "experiments:run"];

export const ACCESS: Record<Principal, readonly Scope[]> = {
  ADMIN: ["runs:write", "runs:export", "learning:read", "learning:write", "ledger:read", "persona:read", "persona:decide", "audit:read", "users:read", "users:manage", "apiKeys:read", "apiKeys:manage", "webhooks:read", "webhooks:manage", "accounts:forget", "experiments:read", "experiments:manage", "own:password"],
  VIEWER: ["learning:read", "experiments:read", "own:password"],
  "key:ingest": INGEST_KEY,
  "key:admin": [...INGEST_KEY, "learning:write", "runs:export", "accounts:forget", "experiments:manage", "webhooks:read", "webhooks:manage"],
  "key:ledger:propose": ["ledger:propose", "ledger:read"],
  "key:ledger:evaluate": ["ledger:evaluate", "ledger:read"],
};

/** Scopes that change state: refused while PROCTOR_READ_ONLY=1 (persona decisions excepted, see below). */
const WRITES: ReadonlySet<Scope> = new Set(["runs:write", "learning:write", "persona:decide", "users:manage", "apiKeys:manage", "webhooks:manage", "ledger:propose", "ledger:evaluate", "accounts:forget", "experiments:run", "experiments:manage", "own:password"]);

export const readOnlyMode = (env: NodeJS.ProcessEnv = process.env) => env.PROCTOR_READ_ONLY === "1";

function principalsOf(actor: Actor): Principal[] {
  return actor.type === "user" ? [actor.role] : actor.scopes.map((s) => `key:${s}` as const);
}

export type Denial = "scope" | "read_only" | "persona_actions_off";

/** Why `actor` may not use `scope` now, or null when it may. */
export function denial(actor: Actor, scope: Scope, env: NodeJS.ProcessEnv = process.env): Denial | null {
  if (!principalsOf(actor).some((p) => ACCESS[p].includes(scope))) return "scope";
  // Persona decisions are the one exemption from read-only mode, and only when the host enabled them.
  if (scope === "persona:decide") return env.PROCTOR_PERSONA_ACTIONS === "1" ? null : "persona_actions_off";
  if (WRITES.has(scope) && readOnlyMode(env)) return "read_only";
  return null;
}

export const can = (actor: Actor | null, scope: Scope, env: NodeJS.ProcessEnv = process.env): boolean =>
  actor !== null && denial(actor, scope, env) === null;

/** The API-key scope that grants `scope` (the first in API_SCOPES' order), for messages and the OpenAPI document. */
export const keyScopeFor = (scope: Scope): ApiScope => API_SCOPES.find((k) => ACCESS[`key:${k}`].includes(scope)) ?? "admin";

/** The refusal callers see, the same from a route handler and a server action. */
export function refusal(actor: Actor, scope: Scope, why: Denial): Forbidden {
  if (why === "read_only") return new Forbidden("This Proctor instance is read-only (PROCTOR_READ_ONLY=1).");
  // The reference implementation's exact wording for the persona actions flag being off.
  if (why === "persona_actions_off") return new Forbidden("Persona changes are not enabled for this UI");
  return new Forbidden(actor.type === "api_key" ? `This API key lacks the '${keyScopeFor(scope)}' scope.` : "This action needs an admin account.");
}

/** Throws the refusal unless `actor` may use `scope` now. */
export function authorize(actor: Actor, scope: Scope): void {
  const why = denial(actor, scope);
  if (why) throw refusal(actor, scope, why);
}
