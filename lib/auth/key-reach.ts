// What a bound API key reaches (README "API keys", bindings): its one ledger tenant,
// its agents and, for an evaluator key, its one evaluator_id. Scope strings in a request are
// not authentication: a request naming anything else is refused (403), and records found by
// their own id (a run, a skill, an experiment) of another agent are answered as not found.
// The agent API declares what each operation names (lib/api/v1/contract.ts) and its route
// wrapper applies these rules (lib/api/handler.ts); a route handler calls none of them, and gets
// only `reaches` from the wrapper, to leave out what it finds by content (a persona, OTLP spans).
import type { Actor } from "./actor";
import { Forbidden } from "../errors";

/**
 * What one request names: the ledger tenant, the agent (learning or ledger), the evaluator, or
 * every agent at once (`everyAgent`: forgetting an account touches the runs of any agent).
 */
export type Reach = { tenant?: string; agent?: string; evaluator?: string; everyAgent?: true };

/** True when `actor` is a key bound to some agents (users and unbound keys see every agent). */
export function bindsAgents(actor: Actor | null): boolean {
  return actor?.type === "api_key" && (actor.binding?.agents.length ?? 0) > 0;
}

/** True when `actor` may see records of `agentId`. */
export function reachesAgent(actor: Actor | null, agentId: string): boolean {
  const agents = actor?.type === "api_key" ? (actor.binding?.agents ?? []) : [];
  return agents.length === 0 || agents.includes(agentId);
}

/** The refusal for a request naming what the key is not bound to, or null. */
export function reachRefusal(actor: Actor | null, reach: Reach): Forbidden | null {
  if (actor?.type !== "api_key") return null;
  const b = actor.binding;
  if (reach.everyAgent && bindsAgents(actor)) return new Forbidden("This API key is bound to agents; this operation reaches every agent.");
  if (reach.tenant !== undefined && b?.tenant != null && reach.tenant !== b.tenant) {
    return new Forbidden("This API key is bound to another ledger tenant.");
  }
  if (reach.agent !== undefined && !reachesAgent(actor, reach.agent)) return new Forbidden("This API key is not bound to this agent.");
  // Every ledger:evaluate key has an evaluator (refused at creation otherwise).
  if (reach.evaluator !== undefined && reach.evaluator !== b?.evaluatorId) {
    return new Forbidden("This API key records evaluations only as the evaluator it is bound to.");
  }
  return null;
}
