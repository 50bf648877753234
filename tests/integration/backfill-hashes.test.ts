// `npm run learning:backfill-hashes`: runs without a trajectory identity, or with one from an
// older rule version, get the current one, and the classes involved are rebuilt from the runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { runScript } from "../helpers/scripts";

const VECTOR = "5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12";
// What version 1 (top-level keys only) made of create_order{customer: {id}}.
const V1_HASH = createHash("sha256").update('[{"arg_keys":["customer"],"errored":false,"tool":"create_order"}]').digest("hex");
let server: TestServer;
const ids: Record<string, string> = {};

function backfill(...args: string[]) {
  const r = runScript(server, "scripts/learning/backfill-hashes.ts", ...args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}
const row = async (id: string) => (await server.sql.query("SELECT canonical_hash, canonical_version, step_count FROM workflows WHERE id = $1", [id])).rows[0];
const classes = async () =>
  (await server.sql.query("SELECT canonical_hash, executions, successes, distinct_queries, tools FROM trajectory_classes WHERE agent_id = 'bf' ORDER BY canonical_hash")).rows;

beforeAll(async () => {
  server = await startTestServer();
  const admin = withKey(ADMIN_KEY);
  await call(server.baseUrl, admin, "PUT", "/api/v1/agents/bf", { name: "Backfill" });
  const refund = [{ tool: "lookup_order", arguments: { order_id: "A1" } }, { tool: "issue_refund", arguments: { order_id: "A1", amount: 1 } }];
  const runs = [
    { workflow_id: "r1", query: "Refund order A1", steps: refund },
    { workflow_id: "r2", query: "Refund order B2", steps: refund, outcome: "failure" },
    { workflow_id: "r3", query: "New order", steps: [{ tool: "create_order", arguments: { customer: { id: 1 } } }] },
  ];
  for (const r of runs) ids[r.workflow_id] = (await call(server.baseUrl, admin, "POST", "/api/v1/agents/bf/workflows", r)).json.id;
  // The state an older release left behind: r3 hashed by rule version 1 (its class under that
  // hash), r2 never hashed, and class counts that no longer match the runs.
  const v2 = (await row(ids.r3)).canonical_hash;
  await server.sql.query("UPDATE workflows SET canonical_version = 1, canonical_hash = $2 WHERE id = $1", [ids.r3, V1_HASH]);
  for (const t of ["trajectory_classes", "trajectory_class_queries", "trajectory_class_days"]) {
    await server.sql.query(`UPDATE ${t} SET canonical_hash = $1 WHERE canonical_hash = $2`, [V1_HASH, v2]);
  }
  await server.sql.query("UPDATE workflows SET canonical_version = NULL, canonical_hash = NULL, canonical_signature = NULL WHERE id = $1", [ids.r2]);
  await server.sql.query("UPDATE trajectory_classes SET executions = 99 WHERE canonical_hash = $1", [VECTOR]);
});
afterAll(async () => {
  await server?.stop();
});

describe(`learning:backfill-hashes (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("reports what it would do on --dry-run and changes nothing", async () => {
    const before = await classes();
    const out = backfill("--dry-run");
    expect(out).toMatch(/dry run: 2 runs would be rehashed to rule version 2; 2 changed class/);
    expect(await row(ids.r2)).toMatchObject({ canonical_hash: null, canonical_version: null });
    expect(await row(ids.r3)).toMatchObject({ canonical_hash: V1_HASH, canonical_version: 1 });
    expect(await classes()).toEqual(before);
  });

  it("rehashes stale runs and rebuilds the classes they left and joined", async () => {
    const out = backfill();
    expect(out).toMatch(/2 runs were rehashed to rule version 2/);
    expect(await row(ids.r2)).toEqual({ canonical_hash: VECTOR, canonical_version: 2, step_count: 2 });
    const r3 = await row(ids.r3);
    expect(r3.canonical_version).toBe(2);
    expect(r3.canonical_hash).not.toBe(V1_HASH);
    const after = await classes();
    expect(after.map((c) => c.canonical_hash).sort()).toEqual([r3.canonical_hash, VECTOR].sort());
    expect(after.find((c) => c.canonical_hash === VECTOR)).toMatchObject({ executions: 2, successes: 1, distinct_queries: 2, tools: ["lookup_order", "issue_refund"] });
    expect(after.find((c) => c.canonical_hash === r3.canonical_hash)).toMatchObject({ executions: 1, successes: 1, distinct_queries: 1, tools: ["create_order"] });
    const days = await server.sql.query("SELECT count(*)::int AS n FROM trajectory_class_days WHERE canonical_hash = $1", [V1_HASH]);
    expect(days.rows[0].n).toBe(0);
    const signature = (await server.sql.query("SELECT canonical_signature FROM workflows WHERE id = $1", [ids.r3])).rows[0].canonical_signature;
    expect(signature).toEqual([{ tool: "create_order", arg_keys: ["customer.id"], errored: false, retry_count: 1 }]);
  });

  it("has nothing left to do afterwards", () => {
    expect(backfill()).toMatch(/^0 runs were rehashed/m);
  });
});
