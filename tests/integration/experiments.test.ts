// Experiments end to end on the shared server: the example (examples/experiment,
// run with its one command) creates a three-arm experiment on a shadow skill, runs it through
// the SDK with the `openai` client against a loopback model and completes it. Then: the three
// arms completed, the seed's three checks hold, every figure equals a recount from the stored
// runs, the intervals come back the same for the same seed, class statistics saw none of the
// experiment's runs, the skill arms' cases are paired evaluations in the ledger with the right
// numbers (keyed by case content and arm mode), each case ran its arms in its counterbalanced
// order, bad input is refused with a clear 4xx while changing nothing, and running the example
// a second time adds no ledger trials.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armAggregate, caseArmFigures, deltasFromBaseline, type Arm, type AnswerMatch, type ScoredCase, type ScoredRun } from "@/lib/experiments/scoring";
import { ledgerCaseId } from "@/lib/experiments/ledger";
import type { ExperimentReport } from "@proctor/sdk";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { putAgent, postRuns, cycle } from "../helpers/learning";

const AGENT = "exp-shop";
const root = path.resolve(import.meta.dirname, "../..");
const admin = withKey(ADMIN_KEY);

let server: TestServer;
let output = "";
let experimentId = "";
let report: ExperimentReport;

function runExample(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "example:experiment"], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, output: out }));
  });
}

const rows = async (q: string, params: unknown[] = []) => (await server.sql.query(q, params)).rows;

beforeAll(async () => {
  server = await startTestServer();
  const example = await runExample({ CONSOLE_URL: server.baseUrl, PROCTOR_API_KEY: ADMIN_KEY, AGENT_ID: AGENT, EXPERIMENT_SEED: "17" });
  output = example.output;
  expect(example.code, output).toBe(0);
  [{ id: experimentId }] = await rows("SELECT id FROM experiments WHERE agent_id = $1", [AGENT]);
  report = (await call(server.baseUrl, admin, "GET", `/api/v1/experiments/${experimentId}/report`)).json;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe(`experiments (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("completes the example's three arms, shows the seed's checks passing and prints the table", () => {
    expect(report.experiment.status).toBe("completed");
    expect(report.aggregates.map((a) => [a.arm, a.mode, a.reported])).toEqual([
      ["baseline", "raw_workflows", 4],
      ["skill_user", "skill_user", 4],
      ["skill_developer", "skill_developer", 4],
    ]);
    expect(report.progress).toEqual({ expected: 12, served: 12, reported: 12 });
    expect(report.checks.map((c) => [c.key, c.status])).toEqual([
      ["skill_arms_no_raw_workflows", "pass"],
      ["developer_message_only_in_developer_arm", "pass"],
      ["skill_body_identical", "pass"],
    ]);
    expect(output).toContain("Exact workflow accuracy | 100% | 100% | 100%");
    expect(output).toMatch(/check PASS: Only the developer arm carried a developer message/);
    expect(output).toContain(report.caveat);
  });

  it("recorded what each arm was served: raw workflows only in the baseline, the developer message only in the developer arm, one skill body", async () => {
    const served = await rows("SELECT arm, raw_workflow_count, developer_message, skill_sha256 FROM experiment_runs WHERE experiment_id = $1", [experimentId]);
    const skill = (await rows("SELECT encode(sha256(convert_to(content, 'UTF8')), 'hex') AS sha FROM skills WHERE id = $1", [report.experiment.skill_id]))[0].sha;
    for (const r of served) {
      expect(r.raw_workflow_count).toBe(r.arm === "baseline" ? 3 : 0);
      expect(r.developer_message).toBe(r.arm === "skill_developer");
      expect(r.skill_sha256).toBe(r.arm === "baseline" ? null : skill);
    }
  });

  it("equals a recount from the stored runs, with the same intervals for the same seed", async () => {
    const cases: ScoredCase[] = (await rows("SELECT case_id, expected_hash, expected_answer, answer_match FROM experiment_cases WHERE experiment_id = $1 ORDER BY position", [experimentId])).map(
      (c) => ({ caseId: c.case_id, expectedHash: c.expected_hash, expectedAnswer: c.expected_answer, answerMatch: c.answer_match as AnswerMatch }),
    );
    const runs: ScoredRun[] = (await rows("SELECT * FROM experiment_runs WHERE experiment_id = $1", [experimentId])).map((r) => ({
      caseId: r.case_id, arm: r.arm, repetition: r.repetition, stepsHash: r.steps_hash, answer: r.answer, promptTokens: r.prompt_tokens,
      completionTokens: r.completion_tokens, llmCalls: r.llm_calls, inferenceMs: r.inference_ms, endToEndMs: r.end_to_end_ms,
      rawWorkflowCount: r.raw_workflow_count, developerMessage: r.developer_message,
    }));
    const arms: Arm[] = report.experiment.arms;
    const cells = caseArmFigures(cases, arms, runs);
    for (const a of report.aggregates) expect(a.figures).toEqual(armAggregate(cells, a.arm));
    expect(report.deltas).toEqual(deltasFromBaseline(cells, arms, "baseline", 17));
    const tokens = report.deltas.find((d) => d.arm === "skill_user" && d.metric === "prompt_tokens")!;
    // Requests differ in length, so the paired differences do too: a real, seeded interval.
    expect(tokens.pairs).toBe(4);
    expect(tokens.interval!.low).toBeLessThanOrEqual(tokens.delta!);
    expect(tokens.interval!.high).toBeGreaterThanOrEqual(tokens.delta!);
    const again = (await call(server.baseUrl, admin, "GET", `/api/v1/experiments/${experimentId}/report`)).json;
    expect(again.deltas).toEqual(report.deltas);
  });

  it("leaves class statistics to the agent's own runs", async () => {
    const [cls] = await rows("SELECT sum(executions)::int AS executions, sum(successes)::int AS successes FROM trajectory_classes WHERE agent_id = $1", [AGENT]);
    const [runs] = await rows("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [AGENT]);
    expect(runs.n).toBe(5);
    expect(cls).toEqual({ executions: 5, successes: 5 });
    const [skill] = await rows("SELECT activations, successes, failures, status FROM skills WHERE id = $1", [report.experiment.skill_id]);
    expect(skill).toEqual({ activations: 0, successes: 0, failures: 0, status: "SHADOW" });
  });

  it("recorded each skill-arm case as a paired evaluation of the skill's procedure with the report's numbers", async () => {
    const procedureId = `skill:${report.experiment.skill_id}:v1`;
    expect(report.experiment.ledger).toMatchObject({ procedure_id: procedureId, recorded: 8, duplicates: 0, already_counted: 0, qualification_count: 8, skipped: null });
    const evals = await rows(
      "SELECT case_id, phase, evaluator_id, evidence_ref, baseline_utility, candidate_utility, candidate_cost_units::int AS cost, candidate_latency_ms::int AS latency FROM ledger_evaluations WHERE procedure_id = $1 ORDER BY seq",
      [procedureId],
    );
    const expected = report.cases.flatMap((c) =>
      ["skill_user", "skill_developer"].map((arm) => {
        const cell = report.rows.find((r) => r.case_id === c.case_id && r.arm === arm)!.figures!;
        const base = report.rows.find((r) => r.case_id === c.case_id && r.arm === "baseline")!.figures!;
        const caseId = ledgerCaseId(c, arm as "skill_user" | "skill_developer");
        expect(caseId).toMatch(/^experiment-case:[0-9a-f]{64}:skill_(user|developer)$/);
        return {
          case_id: caseId,
          phase: "QUALIFICATION",
          evaluator_id: "proctor-paired-evaluator",
          evidence_ref: `proctor:${caseId}`,
          baseline_utility: base.combined_accuracy,
          candidate_utility: cell.combined_accuracy,
          cost: Math.round(cell.total_tokens!),
          latency: Math.round(cell.end_to_end_ms!),
        };
      }),
    );
    expect(evals).toEqual(expected);
    const [proc] = await rows("SELECT qualification_count, state FROM ledger_procedures WHERE procedure_id = $1", [procedureId]);
    expect(proc).toEqual({ qualification_count: 8, state: "CANDIDATE" });
  });

  it("ran each case's arms in its counterbalanced order, served in that order, and says so", async () => {
    expect(report.arm_order).toMatchObject({ counterbalanced: true, served: 4, followed: 4 });
    const firsts = report.arm_order.first.map((f) => f.cases);
    expect(firsts.reduce((a, b) => a + b, 0)).toBe(4);
    // Four cases, three arms: one arm goes first twice, the others once (a fixed order gives 4, 0, 0).
    expect([...firsts].sort()).toEqual([1, 1, 2]);
    for (const c of report.cases) {
      expect([...c.arm_order].sort()).toEqual(["baseline", "skill_developer", "skill_user"]);
      const served = await rows("SELECT arm FROM experiment_runs WHERE experiment_id = $1 AND case_id = $2 ORDER BY context_served_at, arm", [experimentId, c.case_id]);
      expect(served.map((r) => r.arm)).toEqual(c.arm_order);
    }
    expect(output).toContain(`arm order: ${report.cases.map((c) => `${c.case_id} ${c.arm_order.join(" > ")}`).join(" | ")}`);
    expect(output).toContain(report.arm_order.statement);
    expect(report.arm_order.statement).toMatch(/^Arms were counterbalanced: .*bootstrap_seed 17.*4 of 4 case repetitions had their contexts served in that order\.$/);
  });

  it("refuses bad input with a clear 4xx and changes nothing", async () => {
    const before = await rows("SELECT count(*)::int AS n FROM experiments");
    const base = report.cases[0];
    const create = (body: Record<string, unknown>, agent = AGENT) =>
      call(server.baseUrl, admin, "POST", `/api/v1/agents/${agent}/experiments`, { name: "x", model: "m", skill_id: report.experiment.skill_id, cases: [{ request: "r", expected_answer: "a" }], ...body });

    await putAgent(server, "exp-other");
    const other = await create({}, "exp-other");
    expect(other.status, other.text).toBe(400);
    expect(other.json.detail).toContain("belongs to another agent");
    const badArm = await create({ arms: [{ name: "baseline", mode: "raw_workflows" }, { name: "x", mode: "skill_system" }] });
    expect(badArm.status).toBe(400);
    expect(badArm.json.errors.map((e: { path: string }) => e.path)).toContain("/arms/1/mode");
    expect((await create({ arms: [{ name: "a", mode: "skill_user" }, { name: "b", mode: "none" }] })).json.detail).toContain("raw_workflows arm");
    expect(await rows("SELECT count(*)::int AS n FROM experiments")).toEqual(before);

    const stored = (await rows("SELECT * FROM experiment_runs WHERE experiment_id = $1 AND case_id = $2 AND arm = 'baseline'", [experimentId, base.case_id]))[0];
    const report1 = {
      case_id: base.case_id, arm: "baseline", repetition: 1, steps: [], answer: "x", prompt_tokens: 1, completion_tokens: 1, llm_calls: 1, inference_ms: 1, end_to_end_ms: 1,
    };
    const post = (body: Record<string, unknown>) => call(server.baseUrl, admin, "POST", `/api/v1/experiments/${experimentId}/runs`, body);
    const notCase = await post({ ...report1, case_id: "no-such-case" });
    expect(notCase.status).toBe(400);
    expect(notCase.json.detail).toContain("Case 'no-such-case' is not in experiment");
    const notArm = await post({ ...report1, arm: "skill_system" });
    expect(notArm.status).toBe(400);
    expect(notArm.json.detail).toContain("Arm 'skill_system' is not in experiment");
    const different = await post(report1);
    expect(different.status).toBe(409);
    expect(different.json.code).toBe("conflict");
    const closed = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${experimentId}/context`, { case_id: base.case_id, arm: "baseline" });
    expect(closed.status).toBe(409);
    expect(closed.json.code).toBe("invalid_state");
    expect((await rows("SELECT * FROM experiment_runs WHERE experiment_id = $1 AND case_id = $2 AND arm = 'baseline'", [experimentId, base.case_id]))[0]).toEqual(stored);
  });

  it("takes an identical report again as a duplicate, and needs the arm's context before a report", async () => {
    await putAgent(server, "exp-dup", { require_shadow: true });
    await postRuns(server, "exp-dup", 5);
    const skillId = (await cycle(server, "exp-dup")).promoted[0];
    const created = await call(server.baseUrl, admin, "POST", "/api/v1/agents/exp-dup/experiments", {
      name: "dup", model: "m", skill_id: skillId, bootstrap_seed: 1, cases: [{ case_id: "c1", request: "Refund order Z1", expected_answer: "done" }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.status).toBe("draft");
    const id = created.json.experiment_id;
    const body = { case_id: "c1", arm: "skill_user", steps: [{ tool: "lookup_order", arguments: { order_id: "Z1" } }], answer: "done", prompt_tokens: 3, completion_tokens: 2, llm_calls: 1, inference_ms: 4, end_to_end_ms: 9 };
    const early = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/runs`, body);
    expect(early.status).toBe(409);
    expect(early.json.detail).toContain("No context was served");
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/context`, { case_id: "c1", arm: "skill_user" })).status).toBe(200);
    const first = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/runs`, body);
    expect(first.status, first.text).toBe(201);
    expect(first.json.run).toMatchObject({ answer_correct: true, workflow_correct: null, raw_workflow_count: 0, developer_message: false });
    const again = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/runs`, body);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, duplicate: true });
    const incomplete = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/complete`, {});
    expect(incomplete.status).toBe(409);
    expect(incomplete.json.detail).toContain("1 of 3 runs are reported");
    const cancelled = await call(server.baseUrl, admin, "POST", `/api/v1/experiments/${id}/cancel`, { reason: "enough" });
    expect(cancelled.json.status).toBe("cancelled");
    const audit = await rows("SELECT action FROM audit_events WHERE target_type = 'experiment' AND target_id = $1 ORDER BY id", [id]);
    expect(audit.map((a) => a.action)).toEqual(["experiment.created", "experiment.cancelled"]);
  });
  it("adds no ledger trials when the example runs again on the same cases", async () => {
    const procedureId = `skill:${report.experiment.skill_id}:v1`;
    const counts = async () => ({
      ...(await rows("SELECT qualification_count, monitoring_count::int AS monitoring_count, state FROM ledger_procedures WHERE procedure_id = $1", [procedureId]))[0],
      evaluations: (await rows("SELECT count(*)::int AS n FROM ledger_evaluations WHERE procedure_id = $1", [procedureId]))[0].n,
    });
    const before = await counts();
    expect(before).toEqual({ qualification_count: 8, monitoring_count: 0, state: "CANDIDATE", evaluations: 8 });

    const again = await runExample({ CONSOLE_URL: server.baseUrl, PROCTOR_API_KEY: ADMIN_KEY, AGENT_ID: AGENT, EXPERIMENT_SEED: "17" });
    expect(again.code, again.output).toBe(0);
    const [second] = await rows("SELECT id, ledger_outcome FROM experiments WHERE agent_id = $1 AND id <> $2", [AGENT, experimentId]);
    expect(second.ledger_outcome).toMatchObject({ procedure_id: procedureId, recorded: 0, already_counted: 8, qualification_count: 8 });
    expect(again.output).toContain(`ledger: 0 paired evaluations recorded, 8 already counted (same case content and arm), to ${procedureId}; qualification_count 8`);
    expect(await counts()).toEqual(before);
    const [audit] = await rows("SELECT details FROM audit_events WHERE action = 'experiment.completed' AND target_id = $1", [second.id]);
    expect(audit.details.ledger).toMatchObject({ recorded: 0, already_counted: 8 });
  }, 180_000);
});
