// What changed for a skill's class after its activation: the class's runs in the window before
// the activation against the same window after it (observational: other things changed too),
// with counts and 95% intervals, beside the causal evidence that exists for the skill (its
// experiments' arms, its ledger qualification, loaded by the skill page). Runs carry no token
// or latency figures; experiment runs do, so those appear per experiment arm.
// Bounded: each side reads at most SIDE_LIMIT runs of the class through the workflows class
// index (agent_id, user_scope, canonical_hash, created_at); at most EXPERIMENT_LIMIT experiments.
import type { Db } from "../../db/prisma";
import { wilson, Z95, type Interval } from "../monitor/wilson";

export type { Interval };

/** Days on each side of the activation. */
export const IMPACT_WINDOW_DAYS = 30;
/** Runs read per side at most (the newest of the window). */
export const SIDE_LIMIT = 10_000;
const EXPERIMENT_LIMIT = 5;
const DAY_MS = 86_400_000;

export type ImpactSide = {
  from: string;
  to: string;
  runs: number;
  successes: number;
  successRate: number | null;
  successInterval: Interval | null;
  stepsMean: number | null;
  stepsInterval: Interval | null;
  /** SIDE_LIMIT runs were read: the side holds more. */
  capped: boolean;
};
export type ExperimentArmImpact = { arm: string; runs: number; tokensMean: number | null; latencyMsMean: number | null };
export type ExperimentImpact = { id: string; name: string; status: string; arms: ExperimentArmImpact[] };
export type SkillImpact = { activatedAt: string | null; windowDays: number; before: ImpactSide | null; after: ImpactSide | null; experiments: ExperimentImpact[] };

/** Normal interval of a mean from its standard deviation (null below two runs). */
export function meanInterval(mean: number | null, sd: number | null, n: number): Interval | null {
  if (mean === null || sd === null || n < 2) return null;
  const half = (Z95 * sd) / Math.sqrt(n);
  return { low: Math.max(0, mean - half), high: mean + half };
}

type SideRow = { runs: number; successes: number; steps_mean: number | null; steps_sd: number | null };

async function side(db: Db, c: { agentId: string; userScope: string; hash: string }, from: Date, to: Date): Promise<ImpactSide> {
  const [r] = await db.$queryRaw<SideRow[]>`
    SELECT count(*)::int AS runs, (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int AS successes,
      avg(w.step_count)::float8 AS steps_mean, stddev_samp(w.step_count)::float8 AS steps_sd
    FROM (
      SELECT outcome, step_count FROM workflows
      WHERE agent_id = ${c.agentId} AND user_scope = ${c.userScope} AND canonical_hash = ${c.hash}
        AND created_at >= ${from} AND created_at < ${to}
      ORDER BY created_at DESC LIMIT ${SIDE_LIMIT}
    ) w`;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    runs: r.runs,
    successes: r.successes,
    successRate: r.runs ? r.successes / r.runs : null,
    successInterval: wilson(r.successes, r.runs),
    stepsMean: r.steps_mean,
    stepsInterval: meanInterval(r.steps_mean, r.steps_sd, r.runs),
    capped: r.runs >= SIDE_LIMIT,
  };
}

type ArmRow = { experiment_id: string; arm: string; runs: number; tokens_mean: number | null; latency_mean: number | null };

async function experimentImpact(db: Db, skillId: string): Promise<ExperimentImpact[]> {
  const experiments = await db.experiment.findMany({
    where: { skillId },
    orderBy: { createdAt: "desc" },
    take: EXPERIMENT_LIMIT,
    select: { id: true, name: true, status: true },
  });
  if (!experiments.length) return [];
  const ids = experiments.map((e) => e.id);
  const arms = await db.$queryRaw<ArmRow[]>`
    SELECT experiment_id, arm, count(*)::int AS runs,
      avg(COALESCE(prompt_tokens, 0) + COALESCE(completion_tokens, 0)) FILTER (WHERE prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL)::float8 AS tokens_mean,
      avg(end_to_end_ms)::float8 AS latency_mean
    FROM experiment_runs WHERE experiment_id = ANY(${ids}::text[]) AND reported_at IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return experiments.map((e) => ({
    id: e.id,
    name: e.name,
    status: e.status.toLowerCase(),
    arms: arms.filter((a) => a.experiment_id === e.id).map((a) => ({ arm: a.arm, runs: a.runs, tokensMean: a.tokens_mean, latencyMsMean: a.latency_mean })),
  }));
}

/**
 * The skill's impact: before/after sides around its first activation (promoted_at), the after
 * side ending at the earlier of now and the window's end; null sides for a never-activated skill.
 */
export async function skillImpact(db: Db, skill: { id: string; agentId: string; userScope: string; sourceCanonicalHash: string; promotedAt: Date | null }, now = new Date()): Promise<SkillImpact> {
  const experiments = experimentImpact(db, skill.id);
  const at = skill.promotedAt;
  if (!at) return { activatedAt: null, windowDays: IMPACT_WINDOW_DAYS, before: null, after: null, experiments: await experiments };
  const c = { agentId: skill.agentId, userScope: skill.userScope, hash: skill.sourceCanonicalHash };
  const w = IMPACT_WINDOW_DAYS * DAY_MS;
  const end = new Date(Math.min(now.getTime() + 1, at.getTime() + w));
  const [before, after] = await Promise.all([side(db, c, new Date(at.getTime() - w), at), side(db, c, at, end)]);
  return { activatedAt: at.toISOString(), windowDays: IMPACT_WINDOW_DAYS, before, after, experiments: await experiments };
}
