// The scripted reviewer: one policy for every arm, deciding through the agent API's admin
// endpoints (the operations the console's buttons call). Each round, after the promotion cycle:
// - a shadow or candidate skill is activated once every check the agent's configuration
//   provides is favourable: shadow readiness "ready" when shadow evaluation is on; its
//   paired-evaluation procedure active in the ledger when qualification is required (the
//   reviewer starts qualification, the evaluator spends the budget). With neither, the reviewer
//   has nothing to read but the SKILL.md, which a script cannot judge: it activates a skill that
//   has waited one round in review, unless an earlier version of it was retired (version > 1,
//   the SKILL.md says why): the same procedure again needs evidence, which only qualification gives.
// The reviewer never demotes: retirement is the engine's (drift demotion, a ledger suspension, a
// removed tool). A deviation flag is not acted on: with two skills in a prompt the one not
// followed counts a deviation on every run, so the flag marks helpful skills too.
// Decisions (activations, qualification starts) are counted.
import type { LearningSettings } from "./arms.ts";
import type { Api, ProcedureRecord, SkillView } from "./api.ts";
import { monitorSkill, qualify } from "./evaluator.ts";
import type { World } from "./world.ts";

export const MODEL = "proving-ground-model-v1";

export type ReviewerState = {
  firstSeen: Map<string, number>;
  procedures: Map<string, ProcedureRecord>;
  decisions: number;
  evaluations: number;
  /** Monitoring evaluations per skill (for runs_to_demote's evaluations). */
  evaluationsBySkill: Map<string, number>;
};

export const newReviewer = (): ReviewerState => ({ firstSeen: new Map(), procedures: new Map(), decisions: 0, evaluations: 0, evaluationsBySkill: new Map() });

export async function review(api: Api, world: World, arm: string, settings: LearningSettings, state: ReviewerState, skills: SkillView[], round: number) {
  for (const skill of skills) {
    if (!state.firstSeen.has(skill.skill_id)) state.firstSeen.set(skill.skill_id, round);
    if (skill.status === "shadow" || skill.status === "candidate") {
      if (await checksFavourable(api, world, arm, settings, state, skill, round)) {
        state.decisions++;
        await api.activate(skill.skill_id, "proving ground reviewer: every check favourable");
      }
    }
  }
}

async function checksFavourable(api: Api, world: World, arm: string, settings: LearningSettings, state: ReviewerState, skill: SkillView, round: number) {
  const checks = settings.shadow_evaluation_enabled || settings.require_qualification;
  if (!checks) return skill.version === 1 && round > state.firstSeen.get(skill.skill_id)!;
  if (settings.shadow_evaluation_enabled && !skill.readiness.ready) return false;
  if (!settings.require_qualification) return true;
  if (skill.status !== "shadow") return false;
  let record = state.procedures.get(skill.skill_id);
  if (!record) {
    state.decisions++;
    record = (await api.startQualification(skill.skill_id, MODEL, "proving ground reviewer: qualify before activation")).body;
    state.procedures.set(skill.skill_id, record);
    const trials = record.proposal.policy.qualification_trials;
    state.evaluations += trials;
    record = { ...record, state: await qualify(api, world, arm, skill, record, round) };
    state.procedures.set(skill.skill_id, record);
  }
  return record.state === "active";
}

/** The evaluator's monitoring cases for every active skill with a procedure; a suspension demotes the skill. */
export async function monitor(api: Api, world: World, arm: string, state: ReviewerState, skills: SkillView[], round: number, cases: number) {
  for (const skill of skills) {
    const record = state.procedures.get(skill.skill_id);
    if (skill.status !== "active" || !record || record.state !== "active") continue;
    state.evaluations += cases;
    state.evaluationsBySkill.set(skill.skill_id, (state.evaluationsBySkill.get(skill.skill_id) ?? 0) + cases);
    const after = await monitorSkill(api, world, arm, skill, record, round, cases);
    state.procedures.set(skill.skill_id, { ...record, state: after });
  }
}

