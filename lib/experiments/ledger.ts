// Into the ledger: on completion every skill-arm case becomes one paired evaluation
// of the skill's ledger procedure — candidate = the skill arm, baseline = the raw-workflow
// baseline arm, utilities = their combined task accuracy on the case (mean over repetitions),
// costs = the skill arm's mean total tokens and end-to-end latency — recorded as the procedure's
// registered evaluator through the ledger's own recordEvaluation, so qualification and the
// activation gate count the experiment's evidence. Case ids and evidence refs name the
// experiment, case and arm, so completing again records nothing twice.
import type { Db, Tx } from "../db/prisma";
import type { Agent, Experiment, Skill } from "../db/generated/client";
import { getProcedure } from "../ledger/read";
import { recordEvaluation } from "../ledger/record-evaluation";
import { proposeSkillQualification, skillProcedureId, skillQualificationScope } from "../ledger/skills";
import type { LedgerScope, PairedEvaluation, ProcedureRecord } from "../ledger/types";
import type { ExperimentReport, LedgerOutcome } from "./report";

/** One paired evaluation before the evaluator and phase are known. */
export type ExperimentPair = Omit<PairedEvaluation, "phase" | "evaluator_id" | "evaluation_contract">;

export const ledgerCaseId = (experimentId: string, caseId: string, arm: string) => `experiment:${experimentId}:${caseId}:${arm}`;

/** The pairs a finished report gives: skill arms × cases where both arms have a combined accuracy. */
export function experimentPairs(report: ExperimentReport): ExperimentPair[] {
  const e = report.experiment;
  const skillArms = e.arms.filter((a) => a.mode === "skill_user" || a.mode === "skill_developer").map((a) => a.name);
  const cell = (caseId: string, arm: string) => report.rows.find((r) => r.case_id === caseId && r.arm === arm)?.figures ?? null;
  const pairs: ExperimentPair[] = [];
  for (const c of report.cases) {
    const base = cell(c.case_id, e.baseline_arm);
    for (const arm of skillArms) {
      const cand = cell(c.case_id, arm);
      if (base?.combined_accuracy == null || cand?.combined_accuracy == null) continue;
      pairs.push({
        case_id: ledgerCaseId(e.experiment_id, c.case_id, arm),
        evidence_ref: `proctor:${ledgerCaseId(e.experiment_id, c.case_id, arm)}`,
        baseline_utility: base.combined_accuracy,
        candidate_utility: cand.combined_accuracy,
        candidate_cost_units: Math.round(cand.total_tokens ?? 0),
        candidate_latency_ms: Math.round(cand.end_to_end_ms ?? 0),
      });
    }
  }
  return pairs;
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
 * candidate, monitoring once active); stops when the procedure is rejected or suspended.
 */
export async function recordExperimentPairs(db: Db, target: LedgerTarget, pairs: ExperimentPair[]): Promise<LedgerOutcome> {
  if ("skipped" in target) return { procedure_id: null, scope: null, recorded: 0, duplicates: 0, skipped: target.skipped };
  const { scope, record } = target;
  const { evaluator_id, evaluation_contract } = record.proposal.policy;
  const out: LedgerOutcome = { procedure_id: record.proposal.id, scope, recorded: 0, duplicates: 0, skipped: null };
  let state = record.state;
  for (const pair of pairs) {
    if (state !== "candidate" && state !== "active") {
      out.skipped = `procedure is ${state}: ${pairs.length - out.recorded - out.duplicates} pairs not recorded`;
      break;
    }
    const phase = state === "candidate" ? "qualification" : "monitoring";
    const { receipt, duplicate } = await recordEvaluation(db, scope, record.proposal.id, { ...pair, phase, evaluator_id, evaluation_contract });
    if (duplicate) out.duplicates++;
    else out.recorded++;
    // A duplicate's receipt holds the state of its first delivery: read the current one.
    state = duplicate ? ((await getProcedure(db, scope, record.proposal.id))?.state ?? state) : receipt.state_after;
  }
  return out;
}
