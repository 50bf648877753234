// API keys: "pk_<prefix>_<secret>". Only the prefix and a sha256 of the whole key are stored;
// the secret is shown once. Keys are 190 bits of randomness, so a fast hash is enough.
// The key check runs on the plain pg pool (every agent request pays it): through Prisma it costs
// several times pg's client CPU (`npm run bench:pg-path`, docs/benchmarks.md#pg-path).
// Rotation keeps the record and its prefix: the secret before the last rotation stays valid
// until previous_valid_until (PROCTOR_API_KEY_ROTATION_GRACE_HOURS, default 24), so the same
// single-row lookup checks both. Nothing about a key is cached: a revocation, expiry or rotation
// made through one web process holds in every other with the next request.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { pgPool, type Db, type Tx } from "../db/prisma";
import { Validation } from "../errors";
import type { Actor, ApiScope, KeyBinding } from "./actor";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function parseApiKey(key: string): { prefix: string } | null {
  const m = /^pk_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{20,})$/.exec(key);
  return m ? { prefix: m[1] } : null;
}

/** A new secret under `prefix` (rotation), or a new prefix too. */
export function generateApiKey(prefix?: string): { key: string; prefix: string } {
  const p = prefix ?? randomBytes(8).toString("base64url").replace(/[^A-Za-z0-9]/g, "").padEnd(10, "0").slice(0, 10);
  return { key: `pk_${p}_${randomBytes(24).toString("base64url")}`, prefix: p };
}

/** Why these scopes and bindings cannot make one key, or null (a ledger procedure's proposer never evaluates it). */
export function keyScopeProblem(scopes: readonly ApiScope[], evaluatorId: string | null | undefined): string | null {
  if (scopes.includes("ledger:propose") && scopes.includes("ledger:evaluate")) {
    return "A key cannot both propose and evaluate ledger procedures: create one key for the agent (ledger:propose) and one for its evaluator (ledger:evaluate).";
  }
  if (scopes.includes("ledger:evaluate") && !evaluatorId) return "A ledger:evaluate key must be bound to an evaluator id.";
  if (!scopes.includes("ledger:evaluate") && evaluatorId) return "Only a ledger:evaluate key is bound to an evaluator id.";
  return null;
}

export type NewApiKey = {
  name: string;
  scopes: ApiScope[];
  createdById?: string | null;
  key?: string;
  tenant?: string | null;
  agents?: string[];
  evaluatorId?: string | null;
  expiresAt?: Date | null;
};

export async function createApiKey(tx: Tx | Db, input: NewApiKey) {
  const generated = input.key ? { key: input.key, prefix: parseApiKey(input.key)?.prefix } : generateApiKey();
  if (!generated.prefix) throw new Error("API key has the wrong format (pk_<10 alphanumerics>_<secret>)");
  const problem = keyScopeProblem(input.scopes, input.evaluatorId);
  if (problem) throw new Validation(problem);
  const row = await tx.apiKey.create({
    data: {
      name: input.name,
      prefix: generated.prefix,
      hash: hashApiKey(generated.key),
      scopes: [...new Set(input.scopes)].sort(),
      createdById: input.createdById ?? null,
      tenant: input.tenant ?? null,
      agents: [...new Set(input.agents ?? [])].sort(),
      evaluatorId: input.evaluatorId ?? null,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { row, secret: generated.key };
}

/** How long the secret before a rotation keeps working: PROCTOR_API_KEY_ROTATION_GRACE_HOURS (0–720, default 24). */
export function rotationGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PROCTOR_API_KEY_ROTATION_GRACE_HOURS;
  const hours = raw === undefined || raw === "" ? 24 : Number(raw);
  if (!Number.isFinite(hours) || hours < 0 || hours > 720) throw new Error("PROCTOR_API_KEY_ROTATION_GRACE_HOURS must be a number of hours from 0 to 720");
  return hours * 3_600_000;
}

const LAST_USED_RESOLUTION_MS = 60_000;

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  previous_hash: string | null;
  previous_valid_until: Date | null;
  scopes: string[];
  tenant: string | null;
  agents: string[] | null;
  evaluator_id: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
};

const sameHash = (stored: string, presentedHash: Buffer) => {
  const a = Buffer.from(stored, "hex");
  return a.length === presentedHash.length && timingSafeEqual(a, presentedHash);
};

/**
 * The actor for a presented key; "expired" for a right secret past its key's expiry (told apart
 * only to a caller who holds the secret); null when it is unknown, revoked or a rotated-out secret.
 */
export async function authenticateApiKey(database: Db, presented: string, clientAddress: string | null = null): Promise<Actor | "expired" | null> {
  const parsed = parseApiKey(presented);
  if (!parsed) return null;
  // Every agent request passes here: plain pg, a fraction of a model query's client cost.
  const pool = pgPool(database);
  const {
    rows: [row],
  } = await pool.query<KeyRow>(
    `SELECT id, name, prefix, hash, previous_hash, previous_valid_until, scopes, tenant, agents, evaluator_id, expires_at, revoked_at, last_used_at
     FROM api_keys WHERE prefix = $1`,
    [parsed.prefix],
  );
  if (!row || row.revoked_at) return null;
  const now = Date.now();
  const presentedHash = Buffer.from(hashApiKey(presented), "hex");
  const current = sameHash(row.hash, presentedHash);
  const previous = !current && row.previous_hash !== null && (row.previous_valid_until?.getTime() ?? 0) > now && sameHash(row.previous_hash, presentedHash);
  if (!current && !previous) return null;
  if (row.expires_at && row.expires_at.getTime() <= now) return "expired";
  // last_used_at (and the address) are kept to the minute so that ingestion does not pay a write per request.
  if (!row.last_used_at || now - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    await pool.query("UPDATE api_keys SET last_used_at = $2, last_used_address = $3 WHERE id = $1", [row.id, new Date(now), clientAddress]);
  }
  const binding: KeyBinding = { tenant: row.tenant, agents: row.agents ?? [], evaluatorId: row.evaluator_id };
  return { type: "api_key", id: row.id, label: `${row.name} (pk_${row.prefix})`, scopes: row.scopes as ApiScope[], binding };
}
