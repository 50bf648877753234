// The outcome_order_v1_1 migration on a database an older release left behind: stored runs are
// judged again under the v1.1 outcome order (the same verdicts as lib/learning/capture/outcome.ts reaches for their
// bodies), the class statistics of changed classes are recounted, and the migration tells how
// many runs changed through a notice that `npm run db:migrate` and `npm start` print.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { canonicalIdentity, normalizeQuery } from "@/lib/learning/capture/canonical";
import { decideOutcome } from "@/lib/learning/capture/outcome";
import { applyMigrations, listMigrations } from "@/scripts/db/migrate";
import { openDomainDatabase, type DomainDatabase } from "../helpers/domain-database";

const MIGRATION = "20261201163600_outcome_order_v1_1";
const RULE = { fail_when: [{ tool: "charge_card", path: "accepted", equals: false }] };

type OldRun = {
  id: string;
  agent: "plain" | "ruled";
  steps: Record<string, unknown>[];
  outcome?: "success" | "failure";
  execution_error?: unknown;
  /** What the old order stored. */
  stored: ["SUCCESS" | "FAILURE", "REPORTED" | "RULE" | "EXECUTION", string | null];
};

const declined = { tool: "charge_card", arguments: { order_id: "A" }, error: { type: "CardDeclined" } };
const charged = (result: unknown) => ({ tool: "charge_card", arguments: { order_id: "A" }, result });
const lookup = { tool: "lookup_order", arguments: { order_id: "A" }, result: { status: "paid" } };

const RUNS: OldRun[] = [
  // The case: the only step failed, nothing reported; the old order said success.
  ...[1, 2, 3].map((i): OldRun => ({ id: `declined-${i}`, agent: "plain", steps: [declined], stored: ["SUCCESS", "EXECUTION", null] })),
  { id: "plain-ok", agent: "plain", steps: [lookup], stored: ["SUCCESS", "EXECUTION", null] },
  { id: "retried", agent: "plain", steps: [declined, charged({ accepted: true })], stored: ["SUCCESS", "EXECUTION", null] },
  { id: "crashed", agent: "plain", steps: [lookup], execution_error: { type: "Boom" }, stored: ["FAILURE", "EXECUTION", null] },
  { id: "said-ok", agent: "plain", steps: [declined], outcome: "success", stored: ["SUCCESS", "REPORTED", null] },
  { id: "said-failed", agent: "plain", steps: [lookup], outcome: "failure", stored: ["FAILURE", "REPORTED", null] },
  // With a rule: a reported success over a failing rule, text results, an unevaluable rule.
  { id: "rule-overridden", agent: "ruled", steps: [charged({ accepted: false })], outcome: "success", stored: ["SUCCESS", "REPORTED", null] },
  { id: "rule-text", agent: "ruled", steps: [charged(JSON.stringify({ accepted: false }))], outcome: "success", stored: ["SUCCESS", "REPORTED", null] },
  { id: "rule-unevaluable", agent: "ruled", steps: [lookup, charged({ status: "ok" })], outcome: "success", stored: ["SUCCESS", "REPORTED", null] },
  { id: "rule-agrees", agent: "ruled", steps: [charged({ accepted: true })], outcome: "success", stored: ["SUCCESS", "REPORTED", null] },
  { id: "rule-passed", agent: "ruled", steps: [charged({ accepted: true })], stored: ["SUCCESS", "RULE", null] },
  { id: "rule-passed-then-error", agent: "ruled", steps: [charged({ accepted: true }), { tool: "send_email", error: "smtp" }], stored: ["SUCCESS", "RULE", null] },
  { id: "rule-failed", agent: "ruled", steps: [charged({ accepted: false })], stored: ["FAILURE", "RULE", null] },
];

let database: DomainDatabase;
let sql: pg.Client;
const notices: string[] = [];

async function storeOldRun(r: OldRun, i: number) {
  const identity = canonicalIdentity(r.steps);
  const at = new Date(Date.UTC(2026, 10, 20 + (i % 3), 12));
  await sql.query(
    `INSERT INTO workflows (id, agent_id, workflow_id, query, normalized_query, steps, execution_error, outcome, outcome_source, learning_error,
       canonical_signature, canonical_hash, canonical_version, step_count, skills_activated, embedding, embedder_id, body_hash, created_at)
     VALUES ($1, $2, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '{}', '{}', 'test', $1, $14)`,
    [r.id, r.agent, `Query ${r.id}`, normalizeQuery(`Query ${r.id}`), JSON.stringify(r.steps), r.execution_error ? JSON.stringify(r.execution_error) : null,
      ...r.stored, JSON.stringify(identity.signature), identity.hash, identity.version, identity.stepCount, at],
  );
}

/** Class statistics as ingestion maintained them under the old verdicts. */
const countClasses = (table: "trajectory_classes" | "trajectory_class_days") =>
  table === "trajectory_classes"
    ? `INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
       SELECT agent_id, user_scope, canonical_hash, (array_agg(canonical_signature))[1], '{}', count(*), count(*) FILTER (WHERE outcome = 'SUCCESS'), count(*), min(created_at), max(created_at)
       FROM workflows WHERE canonical_hash IS NOT NULL GROUP BY 1, 2, 3`
    : `INSERT INTO trajectory_class_days (agent_id, user_scope, canonical_hash, day, executions, successes)
       SELECT agent_id, user_scope, canonical_hash, (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE outcome = 'SUCCESS')
       FROM workflows WHERE canonical_hash IS NOT NULL GROUP BY 1, 2, 3, 4`;

beforeAll(async () => {
  database = await openDomainDatabase({ migrate: false });
  const before = listMigrations().filter((m) => m < MIGRATION);
  await applyMigrations(database.url, { through: before.at(-1) });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  await sql.query(`INSERT INTO agents (id, name, outcome_rule, updated_at) VALUES ('plain', 'Plain', NULL, now()), ('ruled', 'Ruled', $1, now())`, [JSON.stringify(RULE)]);
  for (const [i, r] of RUNS.entries()) await storeOldRun(r, i);
  await sql.query(countClasses("trajectory_classes"));
  await sql.query(countClasses("trajectory_class_days"));
  const applied = await applyMigrations(database.url, { onNotice: (m) => notices.push(m) });
  expect(applied[0]).toBe(MIGRATION);
}, 180_000);
afterAll(async () => {
  await sql?.end();
  await database?.close();
});

describe(`outcome_order_v1_1 migration (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("judges every stored run as ingestion now would", async () => {
    const rows = (await sql.query("SELECT id, outcome::text, outcome_source::text, learning_error FROM workflows ORDER BY id")).rows;
    const expected = RUNS.map((r) => {
      const d = decideOutcome({ steps: r.steps, outcome: r.outcome, execution_error: r.execution_error }, r.agent === "ruled" ? RULE : null);
      return { id: r.id, outcome: d.outcome, outcome_source: d.source, learning_error: d.learningError };
    }).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(rows).toEqual(expected);
    // The cases the issue names, spelled out.
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get("declined-1")).toMatchObject({ outcome: "FAILURE", outcome_source: "STEP_ERROR" });
    expect(byId.get("rule-overridden")).toMatchObject({ outcome: "FAILURE", outcome_source: "RULE", learning_error: null });
    expect(byId.get("rule-unevaluable")).toMatchObject({ outcome: "FAILURE", outcome_source: "RULE", learning_error: expect.stringMatching(/has no 'accepted'/) });
    expect(byId.get("said-ok")).toMatchObject({ outcome: "SUCCESS", outcome_source: "REPORTED" });
  });

  it("recounts the class statistics from the new verdicts", async () => {
    const mismatched = await sql.query(`
      SELECT c.canonical_hash FROM trajectory_classes c
      WHERE c.successes <> (SELECT count(*) FROM workflows w WHERE (w.agent_id, w.user_scope, w.canonical_hash) = (c.agent_id, c.user_scope, c.canonical_hash) AND w.outcome = 'SUCCESS')
      UNION ALL
      SELECT d.canonical_hash FROM trajectory_class_days d
      WHERE d.successes <> (SELECT count(*) FROM workflows w WHERE (w.agent_id, w.user_scope, w.canonical_hash) = (d.agent_id, d.user_scope, d.canonical_hash)
        AND (w.created_at AT TIME ZONE 'UTC')::date = d.day AND w.outcome = 'SUCCESS')`);
    expect(mismatched.rows).toEqual([]);
    const declinedClass = await sql.query("SELECT executions, successes FROM trajectory_classes WHERE agent_id = 'plain' AND canonical_hash = $1", [canonicalIdentity([declined]).hash]);
    // The three declined runs and the reported success share the class: only the report succeeded.
    expect(declinedClass.rows).toEqual([{ executions: 4, successes: 1 }]);
  });

  it("says how many runs changed", () => {
    // declined ×3, plain-ok, retried (default), rule-overridden, rule-text, rule-unevaluable, rule-passed, rule-passed-then-error.
    expect(notices).toContain("outcome order v1.1: 10 stored run(s) changed outcome or source; 6 trajectory class(es) recounted");
  });
});
