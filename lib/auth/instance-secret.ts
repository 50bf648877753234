// Per-installation keys kept in the database (so every process agrees and they survive
// restarts): the pseudonym key for audit rows and persona references. A key is written once
// (create-only upsert) and never changes, so each process may keep what it read for its life.
import { randomBytes, createHmac } from "node:crypto";
import type { Db } from "../db/prisma";
import { perDatabase } from "../db/per-database";

const caches = perDatabase(() => new Map<string, Buffer>());

export async function instanceKey(database: Db, name: string, fromEnv?: string): Promise<Buffer> {
  if (fromEnv) return Buffer.from(fromEnv, "utf8");
  const cache = caches(database);
  const hit = cache.get(name);
  if (hit) return hit;
  const key = `secret:${name}`;
  // Read first: the console pages read through a replica (DATABASE_READ_URL), which refuses writes.
  let row = await database.setting.findUnique({ where: { key } });
  if (!row) {
    await database.setting.upsert({ where: { key }, create: { key, value: randomBytes(32).toString("base64url") }, update: {} });
    row = await database.setting.findUniqueOrThrow({ where: { key } });
  }
  const value = Buffer.from(row.value, "base64url");
  cache.set(name, value);
  return value;
}

export async function pseudonymKey(database: Db): Promise<Buffer> {
  return instanceKey(database, "pseudonym", process.env.PROCTOR_PSEUDONYM_KEY);
}

/** `<scope>:` + the first 16 hex of HMAC-SHA256 over scope and value. Stable, not reversible. */
export function pseudonym(key: Buffer, scope: string, value: string): string {
  return `${scope}:${createHmac("sha256", key).update(`${scope}\u0000${value}`).digest("hex").slice(0, 16)}`;
}
