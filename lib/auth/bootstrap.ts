// First-start bootstrap: the first admin (password printed once by the launcher) and an
// optional API key from PROCTOR_API_KEY. Both are idempotent and audited.
import type { Db } from "../db/prisma";
import { recordAudit, systemAuditContext } from "../audit/record";
import { createApiKey, hashApiKey, parseApiKey } from "./api-keys";
import { hashPassword, randomPassword } from "./password";

export async function ensureFirstAdmin(
  database: Db,
  env: { email?: string; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  if ((await database.user.count()) > 0) return null;
  const email = (env.email ?? "admin@localhost").trim().toLowerCase();
  const password = env.password ?? randomPassword();
  const passwordHash = await hashPassword(password);
  await database.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email, passwordHash, role: "ADMIN", name: "Administrator" } });
    await recordAudit(tx, systemAuditContext("bootstrap"), { type: "user.bootstrapped", target: { type: "user", id: user.id }, data: {} });
  });
  return { email, password, generated: !env.password };
}

export async function ensureBootstrapApiKey(database: Db, key: string | undefined): Promise<"created" | "exists" | "none"> {
  if (!key) return "none";
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error("PROCTOR_API_KEY must look like pk_<10 letters or digits>_<20+ characters of [A-Za-z0-9_-]>");
  const existing = await database.apiKey.findUnique({ where: { prefix: parsed.prefix } });
  if (existing) {
    if (existing.hash !== hashApiKey(key)) throw new Error("PROCTOR_API_KEY's prefix belongs to a different key");
    return "exists";
  }
  await database.$transaction(async (tx) => {
    const { row } = await createApiKey(tx, { name: "bootstrap (PROCTOR_API_KEY)", scopes: ["ingest", "admin", "ledger:propose"], key });
    await recordAudit(tx, systemAuditContext("bootstrap"), { type: "api_key.bootstrapped", target: { type: "api_key", id: row.id }, data: {} });
  });
  return "created";
}
