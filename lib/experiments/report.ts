// The experiment report: everything the report page, its CSV/JSON exports, the agent
// API and the ledger hand-off show, recomputed from the stored cases and runs on every read
// (nothing derived is stored, so the figures always equal a recount from the runs).
import type { Db, Tx } from "../db/prisma";
import type { ExperimentCase, ExperimentRun } from "../db/generated/client";
import type { LedgerScope } from "../ledger/types";
import { armOrderSummary, caseArms, type ArmOrderSummary } from "./arm-order";
import { seedChecks, type SeedCheck } from "./checks";
import { armsOf, expectedRuns, experimentView, loadExperiment, type ExperimentView } from "./experiments";
import {
  armAggregate,
  caseArmFigures,
  deltasFromBaseline,
  METRICS,
  runFigures,
  type AnswerMatch,
  type Arm,
  type Delta,
  type Figures,
  type ScoredCase,
  type ScoredRun,
} from "./scoring";

/** The seed's own caveat, shown with every report. */
export const CAVEAT =
  "A small within-domain test on this agent's own held-out cases with one model: not a general claim that a skill, or higher authority, always helps.";

/**
 * What completion recorded in the ledger (./ledger.ts#recordExperimentPairs), stored on the
 * experiment: pairs recorded, delivered again identically (duplicates), not sent because the
 * ledger already counted their case content and arm (already_counted), and the procedure's
 * qualification trials after it. Outcomes stored before already_counted existed read 0 / null.
 */
export type LedgerOutcome = {
  procedure_id: string | null;
  scope: LedgerScope | null;
  recorded: number;
  duplicates: number;
  already_counted: number;
  qualification_count: number | null;
  skipped: string | null;
};

/** One reported run, for the per-case drill-down. */
export type ReportRun = {
  repetition: number;
  reported_at: string;
  steps_hash: string | null;
  /** The tools of the reported path, in order. */
  tools: string[];
  answer: string | null;
  figures: Figures;
  raw_workflow_ids: string[];
  developer_message: boolean;
  skill_sha256: string | null;
};

export type ReportCase = {
  case_id: string;
  request: string;
  user_id: string | null;
  expected_hash: string | null;
  expected_tools: string[] | null;
  expected_answer: string | null;
  answer_match: AnswerMatch;
  /** The arms in the order this case runs them (the assignments' order). */
  arm_order: string[];
};

/** One (case, arm) cell: means over its reported repetitions (figures null until one is reported). */
export type ReportRow = { case_id: string; arm: string; reported: number; figures: Figures | null; runs: ReportRun[] };

/**
 * The view model of an experiment's report.
 * - `rows`: one per case × arm in case then arm order; `aggregates`: one per arm (mean of case means).
 * - `deltas`: every treatment arm × metric, paired by case against `experiment.baseline_arm`, with
 *   the percentile bootstrap 95 % interval drawn with `experiment.bootstrap_seed` (null below two pairs).
 * - `checks`: the seed's three assertions (pass / fail / pending) with their evidence.
 * - `progress`: assignments in all (cases × arms × repetitions), contexts served, runs reported.
 * - `arm_order`: whether the cases' arm orders are counterbalanced, how often each arm goes first,
 *   whether the contexts were served in those orders, and a sentence saying so.
 */
export type ExperimentReport = {
  /** `ledger`: what completion recorded in the ledger (null before completion). */
  experiment: ExperimentView & { ledger: LedgerOutcome | null };
  metrics: typeof METRICS;
  cases: ReportCase[];
  rows: ReportRow[];
  aggregates: { arm: string; mode: Arm["mode"]; reported: number; figures: Figures }[];
  deltas: Delta[];
  checks: SeedCheck[];
  progress: { expected: number; served: number; reported: number };
  arm_order: ArmOrderSummary;
  caveat: string;
};
// Field names are the wire's (snake_case): the agent API and the JSON export send it as it is.

export const scoredCase = (c: ExperimentCase): ScoredCase => ({
  caseId: c.caseId,
  expectedHash: c.expectedHash,
  expectedAnswer: c.expectedAnswer,
  answerMatch: c.answerMatch as AnswerMatch,
});

/** A run's scored form; only for reported runs. */
export const scoredRun = (r: ExperimentRun): ScoredRun => ({
  caseId: r.caseId,
  arm: r.arm,
  repetition: r.repetition,
  stepsHash: r.stepsHash,
  answer: r.answer,
  promptTokens: r.promptTokens!,
  completionTokens: r.completionTokens!,
  llmCalls: r.llmCalls!,
  inferenceMs: r.inferenceMs!,
  endToEndMs: r.endToEndMs!,
  rawWorkflowCount: r.rawWorkflowCount,
  developerMessage: r.developerMessage,
});

const storedOutcome = (stored: unknown): LedgerOutcome | null =>
  stored ? { already_counted: 0, qualification_count: null, ...(stored as Omit<LedgerOutcome, "already_counted" | "qualification_count">) } : null;

const toolsOf = (signature: unknown): string[] => (Array.isArray(signature) ? signature.map((u: { tool: string }) => u.tool) : []);

export async function experimentReport(db: Db | Tx, experimentId: string): Promise<ExperimentReport> {
  const e = await loadExperiment(db, experimentId);
  const [cases, runs] = await Promise.all([
    db.experimentCase.findMany({ where: { experimentId }, orderBy: { position: "asc" } }),
    db.experimentRun.findMany({ where: { experimentId }, orderBy: [{ caseId: "asc" }, { arm: "asc" }, { repetition: "asc" }] }),
  ]);
  const arms = armsOf(e);
  const reported = runs.filter((r) => r.reportedAt !== null);
  const scoredCases = cases.map(scoredCase);
  const scoredRuns = reported.map(scoredRun);
  const cells = caseArmFigures(scoredCases, arms, scoredRuns);
  const progress = { expected: expectedRuns(e, cases.length), served: runs.length, reported: reported.length };
  const orders = new Map(cases.map((c) => [c.caseId, caseArms(c.armOrder, arms).map((a) => a.name)]));

  const rows: ReportRow[] = [];
  for (const c of cases) {
    for (const arm of arms) {
      const mine = reported.filter((r) => r.caseId === c.caseId && r.arm === arm.name);
      rows.push({
        case_id: c.caseId,
        arm: arm.name,
        reported: mine.length,
        figures: cells.find((x) => x.caseId === c.caseId && x.arm === arm.name)?.figures ?? null,
        runs: mine.map((r) => ({
          repetition: r.repetition,
          reported_at: r.reportedAt!.toISOString(),
          steps_hash: r.stepsHash,
          tools: toolsOf(r.steps),
          answer: r.answer,
          figures: runFigures(scoredCase(c), scoredRun(r)),
          raw_workflow_ids: r.rawWorkflowIds,
          developer_message: r.developerMessage,
          skill_sha256: r.skillSha256,
        })),
      });
    }
  }

  return {
    experiment: { ...experimentView(e, { expected: progress.expected, reported: progress.reported }), ledger: storedOutcome(e.ledgerOutcome) },
    metrics: METRICS,
    cases: cases.map((c) => ({
      case_id: c.caseId,
      request: c.request,
      user_id: c.userId,
      expected_hash: c.expectedHash,
      expected_tools: c.expectedPath === null ? null : toolsOf(c.expectedPath),
      expected_answer: c.expectedAnswer,
      answer_match: c.answerMatch as AnswerMatch,
      arm_order: orders.get(c.caseId)!,
    })),
    rows,
    aggregates: arms.map((a) => ({ arm: a.name, mode: a.mode, reported: reported.filter((r) => r.arm === a.name).length, figures: armAggregate(cells, a.name) })),
    deltas: deltasFromBaseline(cells, arms, e.baselineArm, e.bootstrapSeed),
    checks: seedChecks(arms, runs),
    progress,
    arm_order: armOrderSummary(
      arms.map((a) => a.name),
      cases.map((c) => ({ caseId: c.caseId, order: orders.get(c.caseId)! })),
      cases.some((c) => c.armOrder.length > 0),
      e.bootstrapSeed,
      runs,
    ),
    caveat: CAVEAT,
  };
}
