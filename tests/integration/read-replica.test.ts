// DATABASE_READ_URL (docs/deploy.md "Read replica"): the console pages' loaders read from the replica while sign-in,
// console actions and the agent API use the primary. A second database stands in for the
// replica: migrated, holding rows the primary does not, and read-only like a hot standby, so
// any write sent there fails. PostgreSQL only (POSTGRES_ONLY in vitest.integration.config.ts).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPostgresDatabase, launchTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin as adminKey, putAgent } from "../helpers/learning";

let primary: Awaited<ReturnType<typeof createPostgresDatabase>>;
let replica: Awaited<ReturnType<typeof createPostgresDatabase>>;
let replicaSql: pg.Pool;
let server: TestServer;
let session: Caller;

const dbName = (url: string) => new URL(url).pathname.slice(1);

beforeAll(async () => {
  // Both migrated once: the replica starts as a copy of the migrated primary.
  primary = await createPostgresDatabase();
  await applyMigrations(primary.url);
  replica = await createPostgresDatabase({ template: dbName(primary.url) });
  replicaSql = new pg.Pool({ connectionString: replica.url, max: 1 });
  // Dropping the replica at the end (WITH FORCE) can reach a connection still closing.
  replicaSql.on("error", () => {});
  await replicaSql.query(`INSERT INTO agents (id, name, updated_at) VALUES ('shared', 'Name on the replica', now()), ('replica-only', 'Only on the replica', now())`);
  await replicaSql.query(`ALTER DATABASE ${dbName(replica.url)} SET default_transaction_read_only = on`);
  server = await launchTestServer({ databaseUrl: primary.url, env: { DATABASE_READ_URL: replica.url } });
  // The replica has no users: signing in works only because auth reads the primary.
  session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await call(server.baseUrl, adminKey, "PUT", "/api/v1/agents/shared", { name: "Name on the primary", tools: [] });
  await putAgent(server, "primary-only");
  // Replication, played by hand: the instance keys the sign-in created on the primary.
  const keys = await server.sql.query("SELECT key, value FROM settings WHERE key LIKE 'secret:%'");
  expect(keys.rows.length).toBeGreaterThan(0);
  await replicaSql.query("BEGIN READ WRITE");
  for (const k of keys.rows) await replicaSql.query("INSERT INTO settings (key, value) VALUES ($1, $2)", [k.key, k.value]);
  await replicaSql.query("COMMIT");
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await replicaSql?.end();
  await replica?.drop();
  await primary?.drop();
});

const page = async (path: string) => {
  const r = await call(server.baseUrl, session, "GET", path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}\n${server.output().slice(-2000)}`).toBe(200);
  return r.text;
};

describe("read replica (DATABASE_READ_URL)", () => {
  it("pages read the replica; actions and the agent API use the primary", async () => {
    const agents = await page("/agents");
    expect(agents).toContain("Name on the replica");
    expect(agents).toContain("Only on the replica");
    expect(agents).not.toContain("Name on the primary");
    expect(agents).not.toContain("primary-only");

    expect((await call(server.baseUrl, adminKey, "GET", "/api/v1/agents/shared")).json.name).toBe("Name on the primary");
    expect((await call(server.baseUrl, adminKey, "GET", "/api/v1/agents/replica-only")).status).toBe(404);

    // The action writes the primary (the read-only replica would refuse it) ...
    const saved = await callAction(server, session, "lib/actions/learning.ts#saveLearningSettings", { agent_id: "shared", learning: { min_executions: 9 } });
    expect(saved.kind, saved.text.slice(0, 300)).toBe("ok");
    const primary = await server.sql.query("SELECT learning->>'min_executions' AS m FROM agents WHERE id = 'shared'");
    expect(primary.rows[0].m).toBe("9");
    // ... and the settings page still shows the replica's row until replication brings the change.
    const settings = await page("/agents/shared/settings");
    expect(settings).toContain("Name on the replica");
    expect((await replicaSql.query("SELECT learning FROM agents WHERE id = 'shared'")).rows[0].learning).toEqual({});
  });

  it("every console page renders from the read-only replica (no loader writes)", async () => {
    for (const path of ["/", "/agents/replica-only", "/agents/replica-only/settings", "/workflows", "/workflows/runs", "/skills", "/traces", "/accounts", "/ledger", "/audit", "/audit?account=acct-1", "/settings/api-keys", "/settings/webhooks"]) {
      await page(path);
    }
  });
});
