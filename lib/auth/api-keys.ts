// API keys: "pk_<prefix>_<secret>". Only the prefix and a sha256 of the whole key are stored;
// the secret is shown once. Keys are 190 bits of randomness, so a fast hash is enough.
// The key check runs on the plain pg pool (every agent request pays it): Prisma 143 µs of client
// CPU per check, pg 39 µs; 1,367 vs 5,302 checks/s at concurrency 8 (scripts/bench/pg-path.ts).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { pgPool, type Db, type Tx } from "../db/prisma";
import type { Actor, ApiScope } from "./actor";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function parseApiKey(key: string): { prefix: string } | null {
  const m = /^pk_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{20,})$/.exec(key);
  return m ? { prefix: m[1] } : null;
}

export function generateApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(8).toString("base64url").replace(/[^A-Za-z0-9]/g, "").padEnd(10, "0").slice(0, 10);
  return { key: `pk_${prefix}_${randomBytes(24).toString("base64url")}`, prefix };
}

export async function createApiKey(
  tx: Tx | Db,
  input: { name: string; scopes: ApiScope[]; createdById?: string | null; key?: string },
) {
  const generated = input.key ? { key: input.key, prefix: parseApiKey(input.key)?.prefix } : generateApiKey();
  if (!generated.prefix) throw new Error("API key has the wrong format (pk_<10 alphanumerics>_<secret>)");
  const row = await tx.apiKey.create({
    data: {
      name: input.name,
      prefix: generated.prefix,
      hash: hashApiKey(generated.key),
      scopes: [...new Set(input.scopes)].sort(),
      createdById: input.createdById ?? null,
    },
  });
  return { row, secret: generated.key };
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** The actor for a presented key, or null when it is unknown or revoked. */
export async function authenticateApiKey(database: Db, presented: string): Promise<Actor | null> {
  const parsed = parseApiKey(presented);
  if (!parsed) return null;
  // Every agent request passes here: plain pg, a fraction of a model query's client cost.
  const pool = pgPool(database);
  const {
    rows: [row],
  } = await pool.query<{ id: string; name: string; prefix: string; hash: string; scopes: string[]; revoked_at: Date | null; last_used_at: Date | null }>(
    "SELECT id, name, prefix, hash, scopes, revoked_at, last_used_at FROM api_keys WHERE prefix = $1",
    [parsed.prefix],
  );
  if (!row || row.revoked_at) return null;
  const a = Buffer.from(row.hash, "hex");
  const b = Buffer.from(hashApiKey(presented), "hex");
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  // last_used_at is kept to the minute so that ingestion does not pay a write per request.
  const now = Date.now();
  if (!row.last_used_at || now - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    await pool.query("UPDATE api_keys SET last_used_at = $2 WHERE id = $1", [row.id, new Date(now)]);
  }
  return { type: "api_key", id: row.id, label: `${row.name} (pk_${row.prefix})`, scopes: row.scopes as ApiScope[] };
}
