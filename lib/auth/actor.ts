// Who is calling: a console user (session) or an agent's API key.
export type ApiScope = "ingest" | "admin";
export const API_SCOPES: readonly ApiScope[] = ["ingest", "admin"];

export type Actor =
  | { type: "user"; id: string; label: string; role: "ADMIN" | "VIEWER" }
  | { type: "api_key"; id: string; label: string; scopes: ApiScope[] };

export function actorRole(actor: Actor): string {
  return actor.type === "user" ? actor.role : `api_key:${actor.scopes.join("+")}`;
}

/** Admin users and admin-scope keys may mutate learning state. */
export function isAdmin(actor: Actor): boolean {
  return actor.type === "user" ? actor.role === "ADMIN" : actor.scopes.includes("admin");
}
