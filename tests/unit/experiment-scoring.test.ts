// Experiment scoring and the seed's checks: accuracy per run, case means, aggregates,
// paired deltas and their seeded bootstrap intervals; pure, so fast-check can hammer it.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  answerMatches,
  armAggregate,
  caseArmFigures,
  deltasFromBaseline,
  normalizeAnswer,
  pairedBootstrap,
  runFigures,
  type Arm,
  type ScoredCase,
  type ScoredRun,
} from "@/lib/experiments/scoring";
import { seedChecks } from "@/lib/experiments/checks";
import { DEFAULT_ARMS } from "@/lib/experiments/schemas";

const run = (over: Partial<ScoredRun>): ScoredRun => ({
  caseId: "c1", arm: "baseline", repetition: 1, stepsHash: "h", answer: "42", promptTokens: 100, completionTokens: 10,
  llmCalls: 2, inferenceMs: 50, endToEndMs: 80, rawWorkflowCount: 3, developerMessage: false, ...over,
});
const kase = (over: Partial<ScoredCase> = {}): ScoredCase => ({ caseId: "c1", expectedHash: "h", expectedAnswer: "42", answerMatch: "exact", ...over });
const ARMS: Arm[] = DEFAULT_ARMS;

describe("answers", () => {
  it("matches exactly, normalized or by a declared regex", () => {
    expect(answerMatches("Refund issued.", "Refund issued.", "exact")).toBe(true);
    expect(answerMatches("Refund issued.", "refund  issued", "exact")).toBe(false);
    expect(answerMatches("Refund issued.", "  REFUND\tissued ", "normalized")).toBe(true);
    expect(answerMatches("Refund issued.", "Refund not issued", "normalized")).toBe(false);
    expect(answerMatches("^refund of \\d+ EUR$", "refund of 12 EUR", "regex")).toBe(true);
    expect(answerMatches("^refund of \\d+ EUR$", "refund of twelve EUR", "regex")).toBe(false);
    expect(answerMatches("x", null, "normalized")).toBe(false);
    expect(normalizeAnswer("Ａ  b.")).toBe("a b");
  });
});

describe("run figures", () => {
  it("scores workflow, answer and combined accuracy and the cost figures", () => {
    expect(runFigures(kase(), run({}))).toEqual({
      workflow_accuracy: 1, answer_accuracy: 1, combined_accuracy: 1, prompt_tokens: 100, completion_tokens: 10, total_tokens: 110,
      llm_calls: 2, inference_ms: 50, end_to_end_ms: 80, raw_workflow_prompt_rate: 1, developer_message_rate: 0,
    });
    const wrongPath = runFigures(kase(), run({ stepsHash: "other", rawWorkflowCount: 0, developerMessage: true }));
    expect(wrongPath).toMatchObject({ workflow_accuracy: 0, answer_accuracy: 1, combined_accuracy: 0, raw_workflow_prompt_rate: 0, developer_message_rate: 1 });
  });

  it("leaves out what a case does not declare", () => {
    expect(runFigures(kase({ expectedAnswer: null }), run({ answer: "nope" }))).toMatchObject({ workflow_accuracy: 1, answer_accuracy: null, combined_accuracy: 1 });
    expect(runFigures(kase({ expectedHash: null }), run({ stepsHash: "x", answer: "nope" }))).toMatchObject({ workflow_accuracy: null, answer_accuracy: 0, combined_accuracy: 0 });
  });
});

describe("aggregates and deltas", () => {
  const cases = [kase({ caseId: "c1" }), kase({ caseId: "c2" }), kase({ caseId: "c3", expectedAnswer: null })];
  const runs: ScoredRun[] = [
    run({ caseId: "c1", arm: "baseline", stepsHash: "bad" }),
    run({ caseId: "c2", arm: "baseline" }),
    run({ caseId: "c3", arm: "baseline", stepsHash: "bad" }),
    run({ caseId: "c1", arm: "skill_user", rawWorkflowCount: 0, promptTokens: 60 }),
    run({ caseId: "c1", arm: "skill_user", repetition: 2, rawWorkflowCount: 0, promptTokens: 80, stepsHash: "bad" }),
    run({ caseId: "c2", arm: "skill_user", rawWorkflowCount: 0, promptTokens: 60 }),
    run({ caseId: "c3", arm: "skill_user", rawWorkflowCount: 0, promptTokens: 60 }),
  ];
  const cells = caseArmFigures(cases, ARMS, runs);

  it("averages repetitions per case, then cases per arm", () => {
    expect(cells.find((c) => c.caseId === "c1" && c.arm === "skill_user")).toMatchObject({ runs: 2, figures: { workflow_accuracy: 0.5, prompt_tokens: 70 } });
    expect(armAggregate(cells, "baseline")).toMatchObject({ workflow_accuracy: 1 / 3, answer_accuracy: 1, raw_workflow_prompt_rate: 1 });
    expect(armAggregate(cells, "skill_user")).toMatchObject({ workflow_accuracy: 2.5 / 3, prompt_tokens: 190 / 3, raw_workflow_prompt_rate: 0 });
    expect(armAggregate(cells, "skill_developer").combined_accuracy).toBeNull();
  });

  it("pairs deltas by case, with reproducible intervals", () => {
    const deltas = deltasFromBaseline(cells, ARMS, "baseline", 7);
    const wf = deltas.find((d) => d.arm === "skill_user" && d.metric === "workflow_accuracy")!;
    expect(wf.pairs).toBe(3);
    expect(wf.delta).toBeCloseTo(2.5 / 3 - 1 / 3, 12);
    expect(wf.interval!.low).toBeLessThanOrEqual(wf.delta!);
    expect(wf.interval!.high).toBeGreaterThanOrEqual(wf.delta!);
    expect(deltas.find((d) => d.arm === "skill_user" && d.metric === "answer_accuracy")!.pairs).toBe(2);
    expect(deltas.find((d) => d.arm === "skill_developer" && d.metric === "workflow_accuracy")).toMatchObject({ delta: null, interval: null, pairs: 0 });
    expect(deltasFromBaseline(cells, ARMS, "baseline", 7)).toEqual(deltas);
    expect(deltas.filter((d) => d.arm === "baseline")).toEqual([]);
  });
});

describe("paired bootstrap (properties)", () => {
  const deltas = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 2, maxLength: 40 });
  const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

  it("is the point estimate for constant deltas", () => {
    fc.assert(
      fc.property(fc.double({ min: -1000, max: 1000, noNaN: true }), fc.integer({ min: 2, max: 30 }), seed, (d, n, s) => {
        const xs = Array(n).fill(d);
        const point = xs.reduce((a, b) => a + b, 0) / n;
        const iv = pairedBootstrap(xs, s, 200)!;
        return iv.low <= point && point <= iv.high && iv.low === iv.high;
      }),
    );
  });

  it("gives the same interval for the same seed, ordered and within the deltas' range", () => {
    fc.assert(
      fc.property(deltas, seed, (xs, s) => {
        const a = pairedBootstrap(xs, s, 200)!;
        expect(pairedBootstrap(xs, s, 200)).toEqual(a);
        expect(a.low).toBeLessThanOrEqual(a.high);
        expect(a.low).toBeGreaterThanOrEqual(Math.min(...xs) - 1e-9);
        expect(a.high).toBeLessThanOrEqual(Math.max(...xs) + 1e-9);
      }),
    );
  });

  it("depends on the seed, and needs two pairs", () => {
    const xs = [0.13, 0.91, -0.07, 0.52, 0.33, 0.71, 0.05, 0.29, 0.97, -0.4];
    expect(pairedBootstrap(xs, 1, 50)).not.toEqual(pairedBootstrap(xs, 2, 50));
    expect(pairedBootstrap([1], 1)).toBeNull();
  });
});

describe("the seed's checks", () => {
  const served = (arm: string, raw: number, dev: boolean, sha: string | null) => ({ arm, rawWorkflowCount: raw, developerMessage: dev, skillSha256: sha });
  const good = [served("baseline", 3, false, null), served("skill_user", 0, false, "s"), served("skill_developer", 0, true, "s")];

  it("pass on the seed's arrangement and are pending before any skill arm ran", () => {
    expect(seedChecks(ARMS, good).map((c) => c.status)).toEqual(["pass", "pass", "pass"]);
    expect(seedChecks(ARMS, [served("baseline", 3, false, null)]).map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
    expect(seedChecks(ARMS, good)[2].evidence).toContain("s");
  });

  it("fail on raw workflows in a skill arm, a misplaced or missing developer message, or two bodies", () => {
    expect(seedChecks(ARMS, [...good, served("skill_user", 1, false, "s")])[0]).toMatchObject({ status: "fail" });
    expect(seedChecks(ARMS, [...good, served("skill_user", 0, true, "s")])[1]).toMatchObject({ status: "fail" });
    expect(seedChecks(ARMS, [...good, served("skill_developer", 0, false, "s")])[1]).toMatchObject({ status: "fail" });
    expect(seedChecks(ARMS, [...good, served("skill_developer", 0, true, "t")])[2]).toMatchObject({ status: "fail" });
  });
});
