// Who is calling: a console user (session) or an agent's API key.
// `ledger:propose` (agents) and `ledger:evaluate` (their evaluators) are never held together.
export type ApiScope = "ingest" | "admin" | "ledger:propose" | "ledger:evaluate";
export const API_SCOPES = ["ingest", "admin", "ledger:propose", "ledger:evaluate"] as const satisfies readonly ApiScope[];

/** What a key is bound to (chosen at creation): null / empty means any. */
export type KeyBinding = { tenant: string | null; agents: string[]; evaluatorId: string | null };

export type Actor =
  | { type: "user"; id: string; label: string; role: "ADMIN" | "VIEWER" }
  | { type: "api_key"; id: string; label: string; scopes: ApiScope[]; binding?: KeyBinding };

export function actorRole(actor: Actor): string {
  return actor.type === "user" ? actor.role : `api_key:${actor.scopes.join("+")}`;
}
