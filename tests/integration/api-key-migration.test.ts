// The API key migration (README "API keys", scopes): keys stored before the ledger scopes split keep what they
// could do that an agent should (ingest keys get ledger:propose, never ledger:evaluate), stay
// unbound and without expiry, and still authenticate afterwards with the same secret.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey, hashApiKey } from "@/lib/auth/api-keys";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { listMigrations } from "@/scripts/db/migrate";
import { applyMigrationFiles, openDomainDatabase } from "../helpers/domain-database";

const MIGRATION = "api_key_lifecycle_and_bindings";
const OLD_INGEST = "pk_oldingest1_" + "i".repeat(32);

let sql: pg.Pool;
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = await openDomainDatabase({ migrate: false });
  close = opened.close;
  sql = new pg.Pool({ connectionString: opened.url, max: 2 });
  sql.on("error", () => {}); // the database is dropped at the end, possibly under a closing connection
  db = createPrismaClient(opened.url, 2);
});
afterAll(async () => {
  await db?.$disconnect();
  await sql?.end();
  await close?.();
});

describe(`API key migration (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("gives ingest keys ledger:propose only, leaves admin-only keys alone, and keeps every key unbound and working", async () => {
    const names = listMigrations();
    const at = names.findIndex((n) => n.endsWith(`_${MIGRATION}`));
    expect(at).toBeGreaterThan(0);
    await applyMigrationFiles(sql, names.slice(0, at));
    await sql.query(
      `INSERT INTO api_keys (id, name, prefix, hash, scopes) VALUES
         ('k-ingest', 'old ingest', 'oldingest1', $1, ARRAY['ingest']),
         ('k-both', 'old both', 'oldboth123', 'x', ARRAY['admin', 'ingest']),
         ('k-admin', 'old admin', 'oldadmin12', 'y', ARRAY['admin'])`,
      [hashApiKey(OLD_INGEST)],
    );
    await applyMigrationFiles(sql, names.slice(at));

    // Through Prisma, which also connects the client whose $disconnect ends its pg pool.
    const rows = await db.apiKey.findMany({ select: { id: true, scopes: true, tenant: true, agents: true, evaluatorId: true, expiresAt: true }, orderBy: { id: "asc" } });
    expect(rows).toEqual([
      { id: "k-admin", scopes: ["admin"], tenant: null, agents: [], evaluatorId: null, expiresAt: null },
      { id: "k-both", scopes: ["admin", "ingest", "ledger:propose"], tenant: null, agents: [], evaluatorId: null, expiresAt: null },
      { id: "k-ingest", scopes: ["ingest", "ledger:propose"], tenant: null, agents: [], evaluatorId: null, expiresAt: null },
    ]);
    const actor = await authenticateApiKey(db, OLD_INGEST, "127.0.0.1");
    expect(actor).toMatchObject({ type: "api_key", id: "k-ingest", scopes: ["ingest", "ledger:propose"], binding: { tenant: null, agents: [], evaluatorId: null } });
    expect((await sql.query("SELECT last_used_address FROM api_keys WHERE id = 'k-ingest'")).rows[0].last_used_address).toBe("127.0.0.1");
  });
});
