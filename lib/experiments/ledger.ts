// Into the ledger: on completion every skill-arm case becomes one paired evaluation
// of the skill's ledger procedure — candidate = the skill arm, baseline = the raw-workflow
// baseline arm, utilities = their combined task accuracy on the case (mean over repetitions),
// costs = the skill arm's mean total tokens and end-to-end latency — recorded as the procedure's
// registered evaluator through the ledger's own evaluation (in the completion's transaction,
// under the experiment's row lock), so qualification and the activation gate count the
// experiment's evidence.
//
// The ledger counts one piece of evidence once, so the evaluation's case id and evidence ref
// name what the evidence is about, not which experiment produced it: the case's content (its
// request and what counts as right) and the skill arm's mode. Running the same cases again, in
// this experiment or another one, measures the same thing again and adds no trials: those pairs
// are reported as already counted and not sent. Evaluations recorded under the earlier
// per-experiment ids (`experiment:<experiment>:<case>:<arm>`) are resolved to the content they
// were about, so they count as well.
import { createHash } from "node:crypto";
import type { Db, Tx } from "../db/prisma";
import type { Agent, Experiment, Skill } from "../db/generated/client";
import { LedgerError } from "../ledger/errors";
import { evaluatedCaseIds, getProcedure } from "../ledger/read";
import { recordSkillEvaluation } from "../ledger/record-evaluation";
import { proposeSkillQualification, skillProcedureId, skillQualificationScope } from "../ledger/skills";
import type { LedgerScope, PairedEvaluation, ProcedureRecord } from "../ledger/types";
import { armsOf } from "./experiments";
import type { ExperimentReport, LedgerOutcome, ReportCase } from "./report";
import type { ArmMode } from "./scoring";

/** One paired evaluation before the evaluator and phase are known. */
export type ExperimentPair = Omit<PairedEvaluation, "phase" | "evaluator_id" | "evaluation_contract">;

type CaseContent = Pick<ReportCase, "request" | "expected_hash" | "expected_answer" | "answer_match">;

/**
 * sha256 of a case's content: its request (Unicode-normalised, spaces collapsed) and what counts
 * as right (the expected path's canonical hash, the expected answer and how it is matched), as
 * the JSON array of the four. Case ids, users and experiments are not part of it.
 */
export function caseContentKey(c: CaseContent): string {
  const request = c.request.normalize("NFKC").trim().replace(/\s+/g, " ");
  return createHash("sha256").update(JSON.stringify([request, c.expected_hash, c.expected_answer, c.answer_match]), "utf8").digest("hex");
}

/** The ledger case id of a skill arm's pair on a case: one per case content and arm mode. */
export const ledgerCaseId = (c: CaseContent, mode: ArmMode) => `experiment-case:${caseContentKey(c)}:${mode}`;
export const ledgerEvidenceRef = (caseId: string) => `proctor:${caseId}`;

/** Evaluations recorded before content keys: experiment id, case id (may hold ':'), arm name. */
const LEGACY_CASE_ID = /^experiment:([A-Za-z0-9_-]+):(.+):([a-z][a-z0-9_-]*)$/;

/** The pairs a finished report gives: skill arms × cases where both arms have a combined accuracy. */
export function experimentPairs(report: ExperimentReport): ExperimentPair[] {
  const e = report.experiment;
  const skillArms = e.arms.filter((a) => a.mode === "skill_user" || a.mode === "skill_developer");
  const cell = (caseId: string, arm: string) => report.rows.find((r) => r.case_id === caseId && r.arm === arm)?.figures ?? null;
  const pairs: ExperimentPair[] = [];
  for (const c of report.cases) {
    const base = cell(c.case_id, e.baseline_arm);
    for (const arm of skillArms) {
      const cand = cell(c.case_id, arm.name);
      if (base?.combined_accuracy == null || cand?.combined_accuracy == null) continue;
      const caseId = ledgerCaseId(c, arm.mode);
      pairs.push({
        case_id: caseId,
        evidence_ref: ledgerEvidenceRef(caseId),
        baseline_utility: base.combined_accuracy,
        candidate_utility: cand.combined_accuracy,
        candidate_cost_units: Math.round(cand.total_tokens ?? 0),
        candidate_latency_ms: Math.round(cand.end_to_end_ms ?? 0),
      });
    }
  }
  return pairs;
}

/**
 * The pairs' case ids the procedure already holds an evaluation for: under the content key, or
 * under an earlier per-experiment id whose case and arm mode have that content.
 */
async function countedCaseIds(db: Db | Tx, scope: LedgerScope, procedureId: string, pairs: ExperimentPair[]): Promise<Set<string>> {
  const wanted = new Set(pairs.map((p) => p.case_id));
  const held = await evaluatedCaseIds(db, scope, procedureId, { in: [...wanted], prefix: "experiment:" });
  const counted = new Set(held.filter((id) => wanted.has(id)));
  const legacy = held.flatMap((id) => {
    const m = LEGACY_CASE_ID.exec(id);
    return m ? [{ experimentId: m[1], caseId: m[2], arm: m[3] }] : [];
  });
  if (legacy.length === 0) return counted;
  const experimentIds = [...new Set(legacy.map((l) => l.experimentId))];
  const [cases, experiments] = await Promise.all([
    db.experimentCase.findMany({
      where: { OR: legacy.map((l) => ({ experimentId: l.experimentId, caseId: l.caseId })) },
      select: { experimentId: true, caseId: true, request: true, expectedHash: true, expectedAnswer: true, answerMatch: true },
    }),
    db.experiment.findMany({ where: { id: { in: experimentIds } }, select: { id: true, arms: true } }),
  ]);
  for (const l of legacy) {
    const c = cases.find((x) => x.experimentId === l.experimentId && x.caseId === l.caseId);
    const arm = armsOf(experiments.find((x) => x.id === l.experimentId) ?? { arms: [] }).find((a) => a.name === l.arm);
    if (!c || !arm) continue;
    const content = { request: c.request, expected_hash: c.expectedHash, expected_answer: c.expectedAnswer, answer_match: c.answerMatch as CaseContent["answer_match"] };
    counted.add(ledgerCaseId(content, arm.mode));
  }
  return counted;
}

export type LedgerTarget = { scope: LedgerScope; record: ProcedureRecord } | { skipped: string };

/**
 * The skill's procedure in the experiment model's scope: a shadow skill's is proposed when it has
 * none yet (as "Start qualification" would); an active skill needs one already.
 */
export async function ledgerTarget(db: Db | Tx, e: Pick<Experiment, "model">, skill: Skill, agent: Pick<Agent, "id" | "tools" | "learning">): Promise<LedgerTarget> {
  if (skill.status === "SHADOW") {
    const { record } = await proposeSkillQualification(db, { skill, agent, model: e.model });
    return { scope: record.scope, record };
  }
  const scope = await skillQualificationScope(db, agent, e.model);
  const record = await getProcedure(db, scope, skillProcedureId(skill));
  return record ? { scope, record } : { skipped: `skill is ${skill.status.toLowerCase()} and has no ledger procedure for model ${e.model}` };
}

/**
 * Records the pairs in order, in the phase the procedure's state asks for (qualification while
 * candidate, monitoring once active), except those the ledger already counted (by this or another
 * experiment, or twice in this one); stops when the procedure is rejected or suspended.
 */
export async function recordExperimentPairs(db: Tx, target: LedgerTarget, pairs: ExperimentPair[]): Promise<LedgerOutcome> {
  if ("skipped" in target) return { procedure_id: null, scope: null, recorded: 0, duplicates: 0, already_counted: 0, qualification_count: null, skipped: target.skipped };
  const { scope, record } = target;
  const { evaluator_id, evaluation_contract } = record.proposal.policy;
  const out: LedgerOutcome = { procedure_id: record.proposal.id, scope, recorded: 0, duplicates: 0, already_counted: 0, qualification_count: null, skipped: null };
  const counted = await countedCaseIds(db, scope, record.proposal.id, pairs);
  let state = record.state;
  for (const [i, pair] of pairs.entries()) {
    if (counted.has(pair.case_id)) {
      out.already_counted++;
      continue;
    }
    if (state !== "candidate" && state !== "active") {
      out.skipped = `procedure is ${state}: ${pairs.slice(i).filter((p) => !counted.has(p.case_id)).length} pairs not recorded`;
      break;
    }
    const phase = state === "candidate" ? "qualification" : "monitoring";
    try {
      const { receipt, duplicate } = await recordSkillEvaluation(db, scope, record.proposal.id, { ...pair, phase, evaluator_id, evaluation_contract });
      if (duplicate) out.duplicates++;
      else out.recorded++;
      // A duplicate's receipt holds the state of its first delivery: read the current one.
      state = duplicate ? ((await getProcedure(db, scope, record.proposal.id))?.state ?? state) : receipt.state_after;
    } catch (e) {
      // Another completion recorded this case content and arm meanwhile, with other figures.
      if (!(e instanceof LedgerError && e.variant === "ConstraintViolation")) throw e;
      out.already_counted++;
    }
    counted.add(pair.case_id);
  }
  out.qualification_count = (await getProcedure(db, scope, record.proposal.id))?.qualification_count ?? null;
  return out;
}
