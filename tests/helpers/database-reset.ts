// Puts a test server's database back to the state it had right after start-up, between test
// files that share one server (tests/helpers/shared-server.ts): every table emptied except
// _prisma_migrations, then the rows start-up wrote (first admin, bootstrap API key and their
// audit rows) restored with their ids, so ADMIN_EMAIL / ADMIN_KEY keep working.
//
// State the running server keeps in memory survives a reset, so the reset keeps it true:
// - the instance keys (`settings` rows `secret:*`, e.g. the pseudonym key) are kept: the
//   server caches them and never reads them again;
// - skill retrieval caches vectors per (agent, scope) checked against agents.skills_version
//   (lib/learning/inject/retrieval.ts): an agent made again must not meet its old versions, so after
//   each reset a trigger starts new agents SKILLS_VERSION_STEP past the previous reset's (Prisma
//   writes the column's default itself, so the column's DEFAULT cannot do it);
// - the ledger schema version row is kept: the server checked it once and will not write it again;
// - login throttling and the per-key API rate limits live in login_failures and
//   api_key_rate_limits (emptied); ingestion's agent settings are re-checked by its statement.
import pg from "pg";

/** Rows by table, of the tables that held any. */
export type Snapshot = Record<string, unknown[]>;

// ledger_schema: the server checks the ledger's schema version once and remembers it.
const KEPT = new Set(["_prisma_migrations", "settings", "ledger_schema"]);
/** More skill lifecycle changes than one test file makes to one agent. */
const SKILLS_VERSION_STEP = 100_000;
const SKILLS_VERSION_OFFSET = `
  CREATE SEQUENCE IF NOT EXISTS test_resets;
  CREATE OR REPLACE FUNCTION test_skills_version_offset() RETURNS trigger AS $$
  BEGIN
    NEW.skills_version := NEW.skills_version + ${SKILLS_VERSION_STEP} * (SELECT last_value FROM test_resets);
    RETURN NEW;
  END $$ LANGUAGE plpgsql;
  CREATE OR REPLACE TRIGGER test_skills_version_offset BEFORE INSERT ON agents
    FOR EACH ROW EXECUTE FUNCTION test_skills_version_offset();
  SELECT nextval('test_resets');`;

async function tables(db: pg.Pool | pg.Client): Promise<string[]> {
  const r = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  return r.rows.map((t) => t.name).filter((t) => t !== "_prisma_migrations");
}

/** Every row of every non-empty table, taken once right after the server started. */
export async function takeSnapshot(databaseUrl: string): Promise<Snapshot> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const snapshot: Snapshot = {};
    for (const t of await tables(db)) {
      const r = await db.query(`SELECT coalesce(json_agg(t), '[]') AS rows FROM "${t}" t`);
      if (r.rows[0].rows.length) snapshot[t] = r.rows[0].rows;
    }
    return snapshot;
  } finally {
    await db.end();
  }
}

export async function resetDatabase(db: pg.Pool, snapshot: Snapshot): Promise<void> {
  const truncated = (await tables(db)).filter((t) => !KEPT.has(t));
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    await client.query(`TRUNCATE ${truncated.map((t) => `"${t}"`).join(", ")} RESTART IDENTITY CASCADE`);
    await client.query(`DELETE FROM settings WHERE key NOT LIKE 'secret:%'`);
    await client.query(SKILLS_VERSION_OFFSET);
    for (const [t, rows] of Object.entries(snapshot)) {
      await client.query(`INSERT INTO "${t}" SELECT * FROM json_populate_recordset(null::"${t}", $1::json) ON CONFLICT DO NOTHING`, [JSON.stringify(rows)]);
    }
    // Identity columns continue after the restored rows, as they did after start-up.
    const serials = await client.query<{ t: string; c: string }>(`
      SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`);
    for (const { t, c } of serials.rows) {
      if (!snapshot[t]) continue;
      await client.query(`SELECT setval(pg_get_serial_sequence('"${t}"', '${c}'), (SELECT max("${c}") FROM "${t}"))`);
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
