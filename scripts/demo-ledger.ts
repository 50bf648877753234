// `npm run demo:ledger`: the reference's learning_cycle example on Proctor's evidence ledger.
// A strict integer parser is the baseline, trim-then-parse the candidate, on 128 inputs of the
// form "  <n>  ". The candidate qualifies (mean improvement 1.000, bound 0.732), survives a
// restart of the connection, then three monitoring cases with a reported latency of 120,000 ms
// suspend it and selection falls back to the baseline. No model, key or network is involved.
//
// Database: DATABASE_URL when set (for a running console on the embedded database use
// DATABASE_URL=$(cat .data/embedded.url)); otherwise a temporary embedded database, closed and
// reopened from its directory for the restart. Each run uses its own environment label, so the
// demo can be repeated against the same database.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../lib/db/embedded.ts";
import { createPrismaClient, type Db } from "../lib/db/prisma.ts";
import { proposeProcedure } from "../lib/ledger/operations/index.ts";
import { getProcedure, selectProcedure } from "../lib/ledger/read.ts";
import { recordEvaluation } from "../lib/ledger/record-evaluation.ts";
import type { EvaluationPhase, ProcedureRecord } from "../lib/ledger/types.ts";
import { applyMigrations } from "./db/migrate.ts";

const runLabel = `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}-${randomBytes(2).toString("hex")}`;
const scope = { tenant: "demo", agent: "parser-agent", environment: `ts-parser-v1/run-${runLabel}` };
const ID = "trim-before-parse-v1";
const CONTRACT = "whitespace-integers-v1";
const selection = { task: "parse-integer", baseline_revision: "str-parse-v1", evaluation_contract: CONTRACT, max_instruction_bytes: 1024 };

/** Rust's str::parse::<i64>: no surrounding whitespace (JavaScript's parseInt would accept it). */
const strictParse = (s: string): number | null => (/^[+-]?\d+$/.test(s) ? Number(s) : null);
const baseline = (input: string) => strictParse(input);
const candidate = (input: string) => strictParse(input.trim());
const utility = (parsed: number | null, expected: number) => (parsed === expected ? 1 : 0);

const figure = (x: number) => x.toFixed(3);
let failures = 0;
function check(ok: boolean, what: string) {
  if (!ok) {
    failures++;
    console.log(`  ✗ expected ${what}`);
  }
}

type Connection = { db: Db; reopen(): Promise<void>; close(): Promise<void>; where: string };

async function connect(): Promise<Connection> {
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL;
    await applyMigrations(url);
    const conn: Connection = {
      db: createPrismaClient(url, 2),
      where: "PostgreSQL from DATABASE_URL",
      async reopen() {
        await conn.db.$disconnect();
        conn.db = createPrismaClient(url, 2);
      },
      close: () => conn.db.$disconnect(),
    };
    return conn;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-ledger-demo-"));
  let embedded: EmbeddedDatabase = await startEmbeddedDatabase(path.join(dir, "pglite"));
  await applyMigrations(embedded.url);
  const conn: Connection = {
    db: createPrismaClient(embedded.url, 2),
    where: `a temporary embedded database in ${dir}`,
    async reopen() {
      await conn.db.$disconnect();
      await embedded.close();
      embedded = await startEmbeddedDatabase(path.join(dir, "pglite"));
      conn.db = createPrismaClient(embedded.url, 2);
    },
    async close() {
      await conn.db.$disconnect();
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return conn;
}

async function evaluate(db: Db, k: number, phase: EvaluationPhase, latencyMs: number) {
  const input = `  ${k}  `;
  return recordEvaluation(db, scope, ID, {
    case_id: `integer-${k}`,
    phase,
    evaluator_id: "deterministic-parser-test",
    evaluation_contract: CONTRACT,
    evidence_ref: `local-test:integer-${k}`,
    baseline_utility: utility(baseline(input), k),
    candidate_utility: utility(candidate(input), k),
    candidate_cost_units: 1,
    candidate_latency_ms: latencyMs,
  });
}

const describeSelection = (r: ProcedureRecord | null) =>
  r ? `${r.proposal.id} (${r.state}, bound ${figure(r.lower_improvement_bound!)})` : "none: use the baseline";

const conn = await connect();
try {
  console.log(`evidence ledger demo on ${conn.where}`);
  console.log(`scope: tenant ${scope.tenant}, agent ${scope.agent}, environment ${scope.environment}`);
  const { record } = await proposeProcedure(conn.db, {
    scope,
    id: ID,
    task: selection.task,
    baseline_revision: selection.baseline_revision,
    instructions: "Trim leading and trailing whitespace before parsing an integer.",
    source_refs: ["training-trace:whitespace-observation"],
    policy: { evaluator_id: "deterministic-parser-test", evaluation_contract: CONTRACT },
  });
  const before = await selectProcedure(conn.db, scope, selection);
  console.log(`proposed ${ID} (${record.state}); select → ${describeSelection(before)}`);
  check(before === null, "no selection while the procedure is a candidate");

  for (let k = 0; k < 128; k++) await evaluate(conn.db, k, "qualification", 1);
  const promoted = await selectProcedure(conn.db, scope, selection);
  if (!promoted) throw new Error("the candidate was not promoted");
  console.log(
    `promoted: ${promoted.qualification_count} cases, mean improvement ${figure(promoted.mean_improvement)}, ` +
      `lower bound ${figure(promoted.lower_improvement_bound!)} (${promoted.lower_improvement_bound}), state ${promoted.state}`,
  );
  console.log(`agent context: ${promoted.proposal.instructions}`);
  check(promoted.state === "active" && promoted.qualification_count === 128, "Active after 128 cases");
  check(figure(promoted.mean_improvement) === "1.000" && figure(promoted.lower_improvement_bound!) === "0.732", "mean 1.000 and bound 0.732");

  await conn.reopen();
  const afterRestart = await selectProcedure(conn.db, scope, selection);
  console.log(`restarted the connection; select → ${describeSelection(afterRestart)}`);
  check(afterRestart?.proposal.id === ID, "the procedure is still selected after the restart");

  console.log("monitoring: 3 cases with reported latency 120,000 ms (limit 60,000 ms)");
  for (let k = 128; k < 131; k++) await evaluate(conn.db, k, "monitoring", 120_000);
  const suspended = (await getProcedure(conn.db, scope, ID))!;
  const after = await selectProcedure(conn.db, scope, selection);
  console.log(`state ${suspended.state} after ${suspended.monitoring_count} violations (failure streak ${suspended.failure_streak}); select → ${describeSelection(after)}`);
  console.log(`decisions retained: ${suspended.decisions.length}`);
  for (const d of suspended.decisions) console.log(`  ${d.from} → ${d.to} at ${d.triggering_case}: ${d.reason}`);
  check(suspended.state === "suspended" && suspended.monitoring_count === 3 && after === null, "Suspended after three cases, no selection");
  check(suspended.decisions.length === 2, "two decisions");
} finally {
  await conn.close();
}
if (failures) {
  console.log(`${failures} expectation(s) failed`);
  process.exit(1);
}
