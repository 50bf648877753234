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

/** Runs `cases` paired cases and posts them; returns the procedure's state after the last. */
export async function evaluateSkill(
  api: Api,
  world: World,
  arm: string,
  skill: SkillView,
  record: ProcedureRecord,
  phase: "qualification" | "monitoring",
  round: number,
  cases: number,
  from = 0,
): Promise<ProcedureRecord["state"]> {
  const family = familyOfText(world, `${skill.description} ${skill.queries.join(" ")}`);
  let state = record.state;
  for (let k = from; k < from + cases; k++) {
    const label = `${skillLabel(arm, skill)}:${phase}`;
    // A skill about no task of the world fails every case.
    const request = family ? caseRequest(world, family, label, k) : null;
    const candidate = request ? (act(world, request, round, skill.content).success ? 1 : 0) : 0;
    const baseline = request ? (act(world, request, round, null).success ? 1 : 0) : 1;
    const r = await api.evaluate(record, { case_id: `${label}:${k}`, phase, baseline, candidate });
    state = r.receipt?.state_after ?? state;
    if (state !== record.state) break;
  }
  return state;
}
