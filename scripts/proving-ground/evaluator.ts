// The trusted evaluator of the recommended rollout: paired evaluations of a skill on held-out
// cases of the task it names (the world's test harness knows its tasks), the agent run with the
// skill's SKILL.md and without it on the same case, utility 1 for a correct outcome (an exact
// checker: no judge noise). Qualification spends the policy's budget of cases; monitoring a few
// per round for every active skill.
import type { Api, ProcedureRecord, SkillView } from "./api.ts";
import { act } from "./model.ts";
import { caseRequest, familyOfText, type World } from "./world.ts";

/** A label for a skill version that is the same in every run of the same seed (ids are random). */
export const skillLabel = (arm: string, s: Pick<SkillView, "name" | "source_canonical_hash" | "version">) =>
  `${arm}:${s.name}:${s.source_canonical_hash.slice(0, 16)}:v${s.version}`;

/** Qualification cases in flight at once (the ledger decides on the full budget, whatever their order). */
const CONCURRENCY = 4;

function pairedCase(world: World, arm: string, skill: SkillView, phase: string, round: number, k: number) {
  const family = familyOfText(world, `${skill.description} ${skill.queries.join(" ")}`);
  const label = `${skillLabel(arm, skill)}:${phase}`;
  // A skill about no task of the world fails every case.
  const request = family ? caseRequest(world, family, label, k) : null;
  return {
    case_id: `${label}:${k}`,
    candidate: request ? (act(world, request, round, skill.content).success ? 1 : 0) : 0,
    baseline: request ? (act(world, request, round, null).success ? 1 : 0) : 1,
  };
}

/** Spends the qualification budget; returns the procedure's state after it. */
export async function qualify(api: Api, world: World, arm: string, skill: SkillView, record: ProcedureRecord, round: number): Promise<ProcedureRecord["state"]> {
  const trials = record.proposal.policy.qualification_trials;
  let next = 0;
  const worker = async () => {
    while (next < trials) {
      const c = pairedCase(world, arm, skill, "qualification", round, next++);
      await api.evaluate(record, { ...c, phase: "qualification" });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (await api.procedure(record)).state;
}

/** Monitoring cases of an active skill, in order (the failure streak is counted in delivery order). */
export async function monitorSkill(api: Api, world: World, arm: string, skill: SkillView, record: ProcedureRecord, round: number, cases: number) {
  let state = record.state;
  for (let k = round * cases; k < (round + 1) * cases && state === "active"; k++) {
    const r = await api.evaluate(record, { ...pairedCase(world, arm, skill, "monitoring", round, k), phase: "monitoring" });
    state = r.receipt?.state_after ?? state;
  }
  return state;
}
