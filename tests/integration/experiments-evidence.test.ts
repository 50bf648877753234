// Experiment evidence on the real server: the arms of each case run in a seeded counterbalanced
// order (each arm first, and in every place, equally often over a multiple of the arm count;
// with four arms each arm also follows each other arm equally often), the same for the same seed,
// served so by the assignments API and shown in the report. On completion the ledger counts a
// case's content and arm once: a second experiment on the same cases (other case ids, arm names,
// figures) adds no qualification trials and says how many pairs were already counted, and an
// evaluation recorded under the earlier per-experiment case id counts as the content it was about.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidenceKey } from "@/lib/ledger/keys";
import { startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin } from "../helpers/learning";
import { shadowAgent } from "../helpers/shadow";

const AGENT = "exp-evidence";
const PATH = ["lookup_order", "issue_refund"];
const REQUESTS = ["Refund order E1", "Please refund order E2", "Money back for order E3", "Refund my order E4", "Refund E5 please", "I want a refund for E6", "Refund order E7", "Refund order E8"];
const kase = (request: string, caseId?: string) => ({
  ...(caseId ? { case_id: caseId } : {}),
  request,
  expected_path: PATH,
  expected_answer: `Refunded ${request.match(/E\d/)![0]}`,
  answer_match: "normalized",
});

let server: TestServer;
let skillId: string;
const rows = async (q: string, params: unknown[] = []) => (await server.sql.query(q, params)).rows;

async function create(body: Record<string, unknown>): Promise<string> {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/experiments`, { skill_id: skillId, name: "evidence", model: "m-evidence", ...body });
  expect(r.status, r.text).toBe(201);
  return r.json.experiment_id;
}

type Assignment = { case_id: string; arm: string; mode: string; repetition: number; request: string };
const assignments = async (id: string): Promise<Assignment[]> => (await call(server.baseUrl, admin, "GET", `/api/v1/experiments/${id}/assignments?limit=500`)).json.assignments;

/** Each case's arm order as the assignments API serves it, case by case. */
async function servedOrders(id: string): Promise<string[][]> {
  const byCase = new Map<string, string[]>();
  for (const a of await assignments(id)) byCase.set(a.case_id, [...(byCase.get(a.case_id) ?? []), a.arm]);
  return [...byCase.values()];
}

/** Runs every assignment in the served order; every arm solves the case, the skill arms with fewer tokens. */
async function runAll(id: string, latency: number) {
  for (const a of await assignments(id)) {
    const ctx = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/context`, { case_id: a.case_id, arm: a.arm, repetition: a.repetition });
    expect(ctx.status, ctx.text).toBe(200);
    const run = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/runs`, {
      case_id: a.case_id,
      arm: a.arm,
      repetition: a.repetition,
      steps: PATH.map((tool) => ({ tool })),
      answer: `Refunded ${a.request.match(/E\d/)![0]}`,
      prompt_tokens: a.mode === "raw_workflows" ? 900 : 400,
      completion_tokens: 40,
      llm_calls: 2,
      inference_ms: latency,
      end_to_end_ms: latency + 5,
    });
    expect(run.status, run.text).toBe(201);
  }
}

async function complete(id: string) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/complete`, {});
  expect(r.status, r.text).toBe(200);
  return r.json;
}

const procedureId = () => `skill:${skillId}:v1`;
async function ledgerCounts() {
  const [p] = await rows("SELECT qualification_count FROM ledger_procedures WHERE procedure_id = $1", [procedureId()]);
  const [e] = await rows("SELECT count(*)::int AS n FROM ledger_evaluations WHERE procedure_id = $1", [procedureId()]);
  return { qualification_count: p?.qualification_count ?? 0, evaluations: e.n };
}

beforeAll(async () => {
  server = await startTestServer();
  skillId = (await shadowAgent(server, AGENT, { shadow_evaluation_enabled: false })).skill.skill_id;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe(`experiment evidence (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("serves each case's arms in a seeded counterbalanced order: each arm first and in every place equally often, the same for the same seed", async () => {
    const cases = REQUESTS.slice(0, 6).map((r) => kase(r));
    const id = await create({ bootstrap_seed: 5, cases });
    const orders = await servedOrders(id);
    expect(orders).toHaveLength(6);
    const arms = ["baseline", "skill_user", "skill_developer"];
    for (const order of orders) expect([...order].sort()).toEqual([...arms].sort());
    for (const arm of arms) {
      for (let place = 0; place < 3; place++) expect(orders.filter((o) => o[place] === arm), `${arm} in place ${place + 1}`).toHaveLength(2);
    }
    const report = (await call(server.baseUrl, admin, "GET", `/api/v1/experiments/${id}/report`)).json;
    expect(report.cases.map((c: { arm_order: string[] }) => c.arm_order)).toEqual(orders);
    expect(report.arm_order).toMatchObject({ counterbalanced: true, first: arms.map((arm) => ({ arm, cases: 2 })), served: 0, followed: 0 });
    expect(report.arm_order.statement).toContain("Arms were counterbalanced");

    // Deterministic per seed, whoever creates it.
    expect(await servedOrders(await create({ bootstrap_seed: 5, cases }))).toEqual(orders);
    // Another seed shuffles the arms over the same design: every case's order differs or none does.
    const other = await servedOrders(await create({ bootstrap_seed: 6, cases }));
    expect(other.every((o, i) => o.join() === orders[i].join()) || other.every((o, i) => o.join() !== orders[i].join())).toBe(true);
  });

  it("balances which arm follows which with four arms over two squares", async () => {
    const arms = [
      { name: "baseline", mode: "raw_workflows" },
      { name: "skill_user", mode: "skill_user" },
      { name: "skill_developer", mode: "skill_developer" },
      { name: "empty", mode: "none" },
    ];
    const orders = await servedOrders(await create({ bootstrap_seed: 99, arms, cases: REQUESTS.map((r) => kase(r)) }));
    expect(orders).toHaveLength(8);
    const follows = new Map<string, number>();
    for (const o of orders) for (let i = 1; i < o.length; i++) follows.set(`${o[i - 1]}>${o[i]}`, (follows.get(`${o[i - 1]}>${o[i]}`) ?? 0) + 1);
    // 4 × 3 ordered pairs, each adjacent exactly twice; each arm first twice.
    expect([...follows.values()]).toEqual(Array(12).fill(2));
    for (const { name } of arms) expect(orders.filter((o) => o[0] === name)).toHaveLength(2);
  });

  it("counts a case's content and arm once in the ledger: the same cases again add no trials", async () => {
    const first = await create({ bootstrap_seed: 1, cases: REQUESTS.slice(0, 4).map((r, i) => kase(r, `a-${i + 1}`)) });
    await runAll(first, 100);
    const done = await complete(first);
    expect(done.ledger).toMatchObject({ procedure_id: procedureId(), recorded: 8, duplicates: 0, already_counted: 0, qualification_count: 8, skipped: null });
    expect(done.report.arm_order).toMatchObject({ counterbalanced: true, served: 4, followed: 4 });
    expect(await ledgerCounts()).toEqual({ qualification_count: 8, evaluations: 8 });

    // The same four cases under other ids and arm names, measured again with other figures.
    const arms = [
      { name: "raw", mode: "raw_workflows", n: 2 },
      { name: "user", mode: "skill_user" },
      { name: "dev", mode: "skill_developer" },
    ];
    const second = await create({ bootstrap_seed: 2, arms, cases: REQUESTS.slice(0, 4).map((r, i) => kase(r, `b-${i + 1}`)) });
    await runAll(second, 300);
    const again = await complete(second);
    expect(again.ledger).toMatchObject({ recorded: 0, duplicates: 0, already_counted: 8, qualification_count: 8, skipped: null });
    expect(again.report.experiment.ledger).toEqual(again.ledger);
    expect(await ledgerCounts()).toEqual({ qualification_count: 8, evaluations: 8 });
    const [audit] = await rows("SELECT details FROM audit_events WHERE action = 'experiment.completed' AND target_id = $1", [second]);
    expect(audit.details.ledger).toMatchObject({ recorded: 0, already_counted: 8 });

    // Two known cases and one new one: only the new one's two skill arms count.
    const third = await create({ bootstrap_seed: 3, cases: [kase(REQUESTS[0]), kase(REQUESTS[1]), kase(REQUESTS[4])] });
    await runAll(third, 200);
    expect((await complete(third)).ledger).toMatchObject({ recorded: 2, already_counted: 4, qualification_count: 10 });
    expect(await ledgerCounts()).toEqual({ qualification_count: 10, evaluations: 10 });
  });

  it("counts an evaluation recorded under the earlier per-experiment case id as the content it was about", async () => {
    const id = await create({ bootstrap_seed: 4, cases: [kase(REQUESTS[5], "legacy-1")] });
    await runAll(id, 100);
    // The id form completions wrote before cases were keyed by content, recorded through the ledger's own function.
    const [p] = await rows("SELECT tenant, agent, environment, evaluator_id, evaluation_contract FROM ledger_procedures WHERE procedure_id = $1", [procedureId()]);
    const legacyId = `experiment:${id}:legacy-1:skill_user`;
    const [outcome] = await rows(
      `SELECT outcome FROM ledger_record_evaluation($1, $2, $3, $4, $5, 'QUALIFICATION', $6, $7, $8, $9, 0::float8, 1::float8, 440::bigint, 105::bigint, NULL::float8)`,
      [p.tenant, p.agent, p.environment, procedureId(), legacyId, p.evaluator_id, p.evaluation_contract, `proctor:${legacyId}`, Buffer.from(evidenceKey(`proctor:${legacyId}`))],
    );
    expect(outcome.outcome).toBe("recorded");
    expect(await ledgerCounts()).toEqual({ qualification_count: 11, evaluations: 11 });
    expect((await complete(id)).ledger).toMatchObject({ recorded: 1, already_counted: 1, qualification_count: 12 });
    const held = await rows("SELECT case_id FROM ledger_evaluations WHERE procedure_id = $1 AND case_id LIKE '%:skill_developer' ORDER BY seq DESC LIMIT 1", [procedureId()]);
    expect(held[0].case_id).toMatch(/^experiment-case:[0-9a-f]{64}:skill_developer$/);
  });
  it("a cancel racing a completion leaves no ledger evidence: the completion takes the experiment's lock before any ledger write", async () => {
    const id = await create({ bootstrap_seed: 3, cases: REQUESTS.slice(0, 2).map((r, i) => kase(r, `race-${i + 1}`)) });
    await runAll(id, 100);
    const before = await ledgerCounts();
    const waiting = async () => Number((await rows(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n);
    const postgres = process.env.PROCTOR_TEST_DB === "postgres";
    // The experiment's row held as a cancel holds it; the cancel queues first, the completion behind it.
    const holder = await server.sql.connect();
    let cancel: Promise<{ status: number }>, completion: Promise<{ status: number; json: { code?: string } }>;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM experiments WHERE id = $1 FOR UPDATE", [id]);
      cancel = call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/cancel`, { reason: "race" });
      if (postgres) await waitFor(async () => (await waiting()) >= 1, 30_000, () => "the cancel never waited");
      completion = call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/complete`, {});
      if (postgres) await waitFor(async () => (await waiting()) >= 2, 30_000, () => "the completion never waited");
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
    const [cancelled, completed] = await Promise.all([cancel!, completion!]);
    const [{ status }] = await rows("SELECT status::text FROM experiments WHERE id = $1", [id]);
    if (postgres) expect([cancelled.status, completed.status, status]).toEqual([200, 409, "CANCELLED"]);
    // Whichever won: a cancelled experiment left nothing in the ledger.
    if (status === "CANCELLED") expect(await ledgerCounts()).toEqual(before);
    else expect(cancelled.status).toBe(409);
  });
});
