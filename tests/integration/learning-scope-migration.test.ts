// The learning_scope migration on a database an older release left behind: every existing agent
// keeps the per-account scope it learned under ("user" written into its stored configuration,
// the rest of it untouched), each class gets the distinct accounts of its successful runs, and
// the gate function gains the distinct-accounts gate (bit 32), passing classes without accounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { canonicalIdentity, normalizeQuery } from "@/lib/learning/capture/canonical";
import { resolveLearningConfig } from "@/lib/learning/agents/config";
import { applyMigrations, listMigrations } from "@/scripts/db/migrate";
import { openDomainDatabase, type DomainDatabase } from "../helpers/domain-database";

const MIGRATION = "20261203083855_learning_scope";
const STEPS = [{ tool: "lookup_order", arguments: { order_id: "A" } }, { tool: "issue_refund", arguments: { order_id: "A" } }];
const HASH = canonicalIdentity(STEPS).hash;

let database: DomainDatabase;
let sql: pg.Client;

/** A run as the old release stored it: the class is the account's own (user_scope = user_id). */
async function storeOldRun(agent: string, id: string, userId: string | null, outcome: "SUCCESS" | "FAILURE") {
  const identity = canonicalIdentity(STEPS);
  await sql.query(
    `INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, query, normalized_query, steps, outcome, outcome_source,
       canonical_signature, canonical_hash, canonical_version, step_count, skills_activated, embedding, embedder_id, body_hash, created_at)
     VALUES ($1, $2, $1, $3, $4, $5, $6, $7, $8, 'REPORTED', $9, $10, $11, $12, '{}', '{}', 'test', $1, now())`,
    [id, agent, userId, userId ?? "", `Refund ${id}`, normalizeQuery(`Refund ${id}`), JSON.stringify(STEPS), outcome, JSON.stringify(identity.signature), identity.hash, identity.version, identity.stepCount],
  );
}

beforeAll(async () => {
  database = await openDomainDatabase({ migrate: false });
  const before = listMigrations().filter((m) => m < MIGRATION);
  await applyMigrations(database.url, { through: before.at(-1) });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  await sql.query(`INSERT INTO agents (id, name, learning, updated_at) VALUES ('tuned', 'Tuned', '{"min_executions": 2, "require_shadow": true}', now()), ('plain', 'Plain', '{}', now())`);
  await storeOldRun("tuned", "a1", "acct-a", "SUCCESS");
  await storeOldRun("tuned", "a2", "acct-a", "SUCCESS");
  await storeOldRun("tuned", "a3", "acct-a", "FAILURE");
  await storeOldRun("tuned", "b1", "acct-b", "FAILURE");
  await storeOldRun("tuned", "n1", null, "SUCCESS");
  await sql.query(`
    INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
    SELECT agent_id, user_scope, canonical_hash, (array_agg(canonical_signature))[1], '{}', count(*), count(*) FILTER (WHERE outcome = 'SUCCESS'), count(*), min(created_at), max(created_at)
    FROM workflows GROUP BY 1, 2, 3`);
  const applied = await applyMigrations(database.url);
  expect(applied[0]).toBe(MIGRATION);
}, 180_000);
afterAll(async () => {
  await sql?.end();
  await database?.close();
});

describe(`learning_scope migration (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("keeps every existing agent on the per-account scope, its other settings as they were", async () => {
    const rows = (await sql.query("SELECT id, learning FROM agents ORDER BY id")).rows;
    expect(rows).toEqual([
      { id: "plain", learning: { learning_scope: "user" } },
      { id: "tuned", learning: { min_executions: 2, require_shadow: true, learning_scope: "user" } },
    ]);
    expect(resolveLearningConfig(rows[1].learning)).toMatchObject({ learning_scope: "user", min_executions: 2, min_distinct_users: 3 });
  });

  it("counts each class's distinct accounts among its successful runs", async () => {
    const classes = (await sql.query("SELECT user_scope, distinct_users FROM trajectory_classes WHERE agent_id = 'tuned' ORDER BY user_scope")).rows;
    expect(classes).toEqual([
      { user_scope: "", distinct_users: 0 },
      { user_scope: "acct-a", distinct_users: 1 },
      { user_scope: "acct-b", distinct_users: 0 },
    ]);
    const users = (await sql.query("SELECT user_scope, canonical_hash, user_id FROM trajectory_class_users ORDER BY 1, 3")).rows;
    expect(users).toEqual([{ user_scope: "acct-a", canonical_hash: HASH, user_id: "acct-a" }]);
  });

  it("gates on distinct accounts only when some ran the class and fewer than the minimum", async () => {
    const gate = async (distinctUsers: number, minDistinctUsers: number) =>
      (await sql.query("SELECT class_gate_failures(false, 5, 5, 2, $1, now(), 5, 0.8, 2, $2, 30, now()) AS f", [distinctUsers, minDistinctUsers])).rows[0].f;
    expect(await gate(0, 3)).toBe(0);
    expect(await gate(1, 3)).toBe(32);
    expect(await gate(3, 3)).toBe(0);
    expect(await gate(1, 0)).toBe(0);
  });
});
