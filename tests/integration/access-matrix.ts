// The access matrix's expectations, in one file: every agent operation, console route, server
// action and console page with the scope it is meant to need, and the rules that turn a scope
// into each principal's outcome. The rules read the policy itself (ACCESS and denial() in
// lib/auth/access.ts), so this table stays short: what it states by hand is which scope each
// entry needs and the exceptions. access-matrix.test.ts fails on any route, action or page that
// is missing here, on any entry here that no longer exists, and on any cell that differs.
import { ACCESS, denial, type Scope } from "../../lib/auth/access";
import type { Actor, ApiScope } from "../../lib/auth/actor";

export const PRINCIPALS = [
  "anonymous",
  "garbageKey",
  "revokedKey",
  "expiredKey",
  "ingestKey",
  "adminKey",
  "otherAgentKey",
  "viewer",
  "admin",
  "readOnly",
] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * allowed: past every access check (the answer may still be 400/404/409: the input is the probe's).
 * unauthenticated: 401 problem+json (a server action: "unauthorized"). forbidden: 403 (an action:
 * "forbidden"). read_only: the read-only refusal. login: a page view sent to /login?next=….
 */
export type Outcome = "allowed" | "unauthenticated" | "forbidden" | "read_only" | "login";

/** Agent API operations (operationIds of lib/api/v1/contract.ts) by the scope each must require. */
export const AGENT_OPERATIONS: Record<Scope | "public", string[]> = {
  public: ["getHealth", "getOpenApi"],
  "learning:read": ["getAgent", "searchWorkflows", "getWorkflow", "listClasses", "listPromotionCycles", "listSkills", "getSkill", "getSkillReadiness", "exportSkills"],
  "learning:write": ["putAgent", "deleteAgent", "runPromotionCycle", "distillClass", "activateSkill", "demoteSkill", "startSkillQualification", "importSkills"],
  "runs:write": ["ingestWorkflow", "ingestWorkflowBatch", "ingestConversation", "exportOtlpTraces"],
  "runs:export": ["exportWorkflows"],
  "ledger:propose": ["proposeProcedure"],
  "ledger:evaluate": ["recordEvaluation"],
  "context:read": ["assembleContext", "getApprovedPersona"],
  "ledger:read": ["getProcedure", "getEvaluation", "selectProcedure"],
  "persona:read": [],
  "persona:decide": [],
  "audit:read": [],
  "users:read": [],
  "users:manage": [],
  "apiKeys:read": [],
  "apiKeys:manage": [],
  "webhooks:read": [],
  "webhooks:manage": [],
  "accounts:forget": ["forgetAccount"],
  "experiments:read": ["getExperiment", "getExperimentReport"],
  "experiments:run": ["listExperimentAssignments", "experimentContext", "reportExperimentRun"],
  "experiments:manage": ["createExperiment", "completeExperiment", "cancelExperiment"],
};

/** Agent operations that name their agent in the query (a persona's agent_id, a ledger scope's agent): a key bound elsewhere gets 403. */
export const NAMES_AGENT_IN_QUERY = ["getApprovedPersona", "getProcedure", "getEvaluation", "selectProcedure"];

/** Agent operations that reach every agent (forgetting an account): a key bound to agents gets 403. */
export const SPANS_EVERY_AGENT = ["forgetAccount"];

/** Agent operations a console session may not call at all: API keys only (a session gets 401). */
export const KEY_ONLY_OPERATIONS = ["assembleContext", "getApprovedPersona", "proposeProcedure", "recordEvaluation", "exportOtlpTraces"];

/**
 * Route handlers outside the agent contract ("METHOD /path" as under app/): session routes by
 * scope, "public" ones open to all, and the exceptions with the outcome everyone gets.
 */
export const CONSOLE_ROUTES: Record<string, Scope | "public" | { everyone: "not_found" | "untested"; why: string }> = {
  "GET /api/console/api-keys": "apiKeys:read",
  "GET /api/console/audit": "audit:read",
  "GET /api/console/audit/export": "audit:read",
  "GET /api/console/inbox": "learning:read",
  "GET /api/console/experiments/{experiment_id}/export": "experiments:read",
  "GET /api/console/users": "users:read",
  "GET /persona-evolution/state": "persona:read",
  "POST /persona-evolution/action": "persona:decide",
  "GET /api/auth/{nextauth}": "public",
  "POST /api/auth/{nextauth}": { everyone: "untested", why: "next-auth's own sign-in and sign-out forms (tests/integration/auth.test.ts)" },
  "POST /api/v1/bench/floor": { everyone: "not_found", why: "served only when started with PROCTOR_BENCH_FLOOR=1" },
};

/** Server actions ("lib/actions/<file>#<export>") by the scope each must pass to action(). */
export const ACTIONS: Record<string, Scope> = {
  "lib/actions/api-keys.ts#createApiKey": "apiKeys:manage",
  "lib/actions/api-keys.ts#revokeApiKey": "apiKeys:manage",
  "lib/actions/api-keys.ts#rotateApiKey": "apiKeys:manage",
  "lib/actions/users.ts#createUser": "users:manage",
  "lib/actions/users.ts#updateUser": "users:manage",
  "lib/actions/users.ts#signOutEverywhere": "users:manage",
  "lib/actions/users.ts#resetPassword": "users:manage",
  "lib/actions/learning.ts#deleteAgent": "learning:write",
  "lib/actions/learning.ts#distillClass": "learning:write",
  "lib/actions/learning.ts#runPromotionCycle": "learning:write",
  "lib/actions/learning.ts#saveLearningSettings": "learning:write",
  "lib/actions/learning.ts#retryShadowJob": "learning:write",
  "lib/actions/skills.ts#activateSkill": "learning:write",
  "lib/actions/skills.ts#demoteSkill": "learning:write",
  "lib/actions/skills.ts#startQualification": "learning:write",
  "lib/actions/persona.ts#runPersonaAction": "persona:decide",
  "lib/actions/webhooks.ts#createWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#updateWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#rotateWebhookSecret": "webhooks:manage",
  "lib/actions/webhooks.ts#deleteWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#redeliverWebhook": "webhooks:manage",
  "lib/actions/accounts.ts#forgetAccount": "accounts:forget",
  "lib/actions/experiments.ts#createExperiment": "experiments:manage",
  "lib/actions/experiments.ts#cancelExperiment": "experiments:manage",
};

/** Console pages (app/(console)) by the scope requireScope() must ask. */
export const PAGES: Record<string, Scope> = {
  "/": "learning:read",
  "/accounts": "persona:read",
  "/agents": "learning:read",
  "/agents/{agentId}": "learning:read",
  "/agents/{agentId}/settings": "learning:read",
  "/workflows": "learning:read",
  "/workflows/runs": "learning:read",
  "/workflows/runs/{id}": "learning:read",
  "/skills": "learning:read",
  "/traces": "learning:read",
  "/ledger": "ledger:read",
  "/experiments": "experiments:read",
  "/experiments/new": "experiments:manage",
  "/experiments/{id}": "experiments:read",
  "/ledger/procedure": "ledger:read",
  "/audit": "audit:read",
  "/persona-evolution": "persona:read",
  "/settings": "apiKeys:read",
  "/settings/api-keys": "apiKeys:read",
  "/settings/users": "users:read",
  "/settings/webhooks": "webhooks:read",
};

/** The servers the matrix runs on: the read-only column on a PROCTOR_READ_ONLY=1 instance. */
export const SERVER_ENV = { PROCTOR_PERSONA_ACTIONS: "1" } as const;
export const READ_ONLY_ENV = { PROCTOR_READ_ONLY: "1", PROCTOR_PERSONA_ACTIONS: "1" } as const;

/** What each principal is to the policy: its actor (null: no credentials that authenticate). */
// adminKey is the bootstrap key (PROCTOR_API_KEY): ingest, admin and ledger:propose.
const ADMIN_KEY_SCOPES: ApiScope[] = ["ingest", "admin", "ledger:propose"];
const KEY_SCOPES: Partial<Record<Principal, ApiScope[]>> = { ingestKey: ["ingest"], adminKey: ADMIN_KEY_SCOPES, otherAgentKey: ["ingest", "admin"] };
const ROLES: Partial<Record<Principal, "ADMIN" | "VIEWER">> = { viewer: "VIEWER", admin: "ADMIN", readOnly: "ADMIN" };

function actorOf(p: Principal, surface: "agent" | "console"): Actor | null {
  // The read-only column calls the agent API with the admin key and the console with the admin's session.
  if (p === "readOnly" && surface === "agent") return { type: "api_key", id: p, label: p, scopes: ADMIN_KEY_SCOPES };
  const role = ROLES[p];
  if (role) return { type: "user", id: p, label: p, role };
  const scopes = KEY_SCOPES[p];
  return scopes ? { type: "api_key", id: p, label: p, scopes } : null;
}

function byPolicy(actor: Actor, scope: Scope, p: Principal): Outcome {
  const why = denial(actor, scope, { NODE_ENV: "test", ...(p === "readOnly" ? READ_ONLY_ENV : SERVER_ENV) });
  return why === null ? "allowed" : why === "read_only" ? "read_only" : "forbidden";
}

/** An agent operation: keys and sessions as its declaration allows, bound keys kept to their agents. */
export function agentOutcome(operationId: string, scope: Scope | "public", path: string, p: Principal): Outcome {
  if (scope === "public") return "allowed";
  const actor = actorOf(p, "agent");
  if (!actor) return "unauthenticated";
  if (actor.type === "user" && KEY_ONLY_OPERATIONS.includes(operationId)) return "unauthenticated";
  // A key bound to another agent may not name this one (the probe's agent is never its own): 403.
  // Another agent's run or skill read by id is a 404 ("allowed" here: past the access checks).
  if (p === "otherAgentKey" && (path.includes("{agent_id}") || NAMES_AGENT_IN_QUERY.includes(operationId) || SPANS_EVERY_AGENT.includes(operationId))) return "forbidden";
  return byPolicy(actor, scope, p);
}

/** A console route, action or page: sessions only; without one, 401 (a page view: to sign in). */
export function consoleOutcome(scope: Scope, p: Principal, surface: "route" | "action" | "page"): Outcome {
  const actor = actorOf(p, "console");
  if (!actor || actor.type !== "user") return surface === "page" ? "login" : "unauthenticated";
  const outcome = byPolicy(actor, scope, p);
  // Read-only mode hides no page: a page asks `can` for what it may change.
  return surface === "page" && outcome === "read_only" ? "allowed" : outcome;
}
