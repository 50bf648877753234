// Every kind of API-key principal, made through the console's real server actions (and, for
// an expired key, its expiry moved into the past on the server's database, since the console
// refuses creating a key that is already expired). For the ledger trust-boundary tests and the
// access matrix: anonymous, garbage, revoked, expired, ingest, admin, agent-bound, tenant-bound,
// proposer and evaluator keys.
import type pg from "pg";
import { callAction } from "./actions";
import { anonymous, withKey, type Caller } from "./http";

const CREATE = "lib/actions/api-keys.ts#createApiKey";
const REVOKE = "lib/actions/api-keys.ts#revokeApiKey";
const ROTATE = "lib/actions/api-keys.ts#rotateApiKey";

export type KeyServer = { baseUrl: string; sql: pg.Pool };

export type KeyInput = {
  name?: string;
  scopes: ("ingest" | "admin" | "ledger:propose" | "ledger:evaluate")[];
  tenant?: string | null;
  agents?: string[];
  evaluator_id?: string | null;
  expires_at?: string | null;
};

/** A key as the console answers its creation: the row's view, its secret, and a caller using it. */
export type TestKey = { id: string; prefix: string; secret: string; caller: Caller; view: Record<string, unknown> };

let made = 0;

/** Creates a key through Settings → API keys as `admin` (a console session caller). */
export async function createKey(server: KeyServer, admin: Caller, input: KeyInput): Promise<TestKey> {
  const r = await callAction(server, admin, CREATE, { name: input.name ?? `test key ${++made}`, ...input });
  if (r.kind !== "ok") throw new Error(`creating an API key failed: ${r.kind} ${r.error?.message}`);
  const { api_key, secret } = r.data as { api_key: Record<string, unknown> & { id: string; prefix: string }; secret: string };
  return { id: api_key.id, prefix: api_key.prefix, secret, caller: withKey(secret), view: api_key };
}

export const ingestKey = (s: KeyServer, admin: Caller, over: Partial<KeyInput> = {}) => createKey(s, admin, { scopes: ["ingest"], ...over });
export const adminKey = (s: KeyServer, admin: Caller, over: Partial<KeyInput> = {}) => createKey(s, admin, { scopes: ["ingest", "admin"], ...over });
/** What an agent holds for the ledger: it proposes and reads. */
export const proposerKey = (s: KeyServer, admin: Caller, over: Partial<KeyInput> = {}) => createKey(s, admin, { scopes: ["ledger:propose"], ...over });
/** What an evaluator holds: it records evaluations as `evaluatorId` only. */
export const evaluatorKey = (s: KeyServer, admin: Caller, evaluatorId: string, over: Partial<KeyInput> = {}) =>
  createKey(s, admin, { scopes: ["ledger:evaluate"], evaluator_id: evaluatorId, ...over });
/** An ingest + admin key that reaches only `agents` (e.g. "the agent-bound key of another agent"). */
export const agentBoundKey = (s: KeyServer, admin: Caller, agents: string[], over: Partial<KeyInput> = {}) =>
  createKey(s, admin, { scopes: ["ingest", "admin"], agents, ...over });

/**
 * Evaluator keys on demand, one per evaluator_id (cached), for tests that record evaluations
 * under several evaluator ids. An id no key can be bound to (blank, too long) gets the key of
 * `fallback`: such a request fails the body's validation first.
 */
export function evaluatorKeys(s: KeyServer, admin: Caller, fallback = "test-harness"): (evaluatorId: string) => Promise<Caller> {
  const keys = new Map<string, Promise<Caller>>();
  const get = (id: string): Promise<Caller> => {
    if (!keys.has(id)) keys.set(id, evaluatorKey(s, admin, id).then((k) => k.caller, () => (id === fallback ? Promise.reject(new Error("no fallback evaluator key")) : get(fallback))));
    return keys.get(id)!;
  };
  return get;
}

/** A key created, then revoked with a reason: every request with it answers 401 unauthorized. */
export async function revokedKey(s: KeyServer, admin: Caller, over: Partial<KeyInput> = {}): Promise<TestKey> {
  const key = await ingestKey(s, admin, over);
  const r = await callAction(s, admin, REVOKE, { id: key.id, reason: "test: revoked principal" });
  if (r.kind !== "ok") throw new Error(`revoking an API key failed: ${r.kind} ${r.error?.message}`);
  return key;
}

/** A key whose expiry has passed: every request with it answers 401 key_expired. */
export async function expiredKey(s: KeyServer, admin: Caller, over: Partial<KeyInput> = {}): Promise<TestKey> {
  const key = await ingestKey(s, admin, { expires_at: new Date(Date.now() + 3_600_000).toISOString(), ...over });
  await s.sql.query("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1", [key.id]);
  return key;
}

/** Rotates a key's secret; the previous secret works for the grace period. */
export async function rotateKey(s: KeyServer, admin: Caller, key: TestKey): Promise<TestKey> {
  const r = await callAction(s, admin, ROTATE, { id: key.id, reason: "test: rotation" });
  if (r.kind !== "ok") throw new Error(`rotating an API key failed: ${r.kind} ${r.error?.message}`);
  const { api_key, secret } = r.data as { api_key: Record<string, unknown> & { id: string; prefix: string }; secret: string };
  return { id: api_key.id, prefix: api_key.prefix, secret, caller: withKey(secret), view: api_key };
}

/** Well-formed but unknown: 401 unauthorized. */
export const garbageKey: Caller = withKey(`pk_garbage00_${"g".repeat(32)}`);
export { anonymous };
