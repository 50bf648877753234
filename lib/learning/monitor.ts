// Called by ingestion, inside the ingestion transaction, for every newly stored run.
// Write-time stamping of runs whose class has an ACTIVE skill in the same user scope; outcome
// monitoring of the ACTIVE skills in skills_activated (counters, deviations, rolling window,
// drift demotion with unstamping, the deviation review flag at once); and the promotion
// cadence (one promotion_cycle job per promotion_every_n_runs stored runs, run by the worker).
// Cheap by design: a handful of indexed statements per batch, no scans, no LLM.
import type { Tx } from "../db/prisma";
import { resolveLearningConfig } from "./config";
import { applyOutcomes, deviationFlag, type RunOutcome } from "./drift";
import { bumpSkillsVersion, recordSkillEvent, unstampSkill } from "./skill-lifecycle";

export type StoredRun = {
  id: string;
  workflowId: string;
  agentId: string;
  userId: string | null;
  userScope: string;
  canonicalHash: string | null;
  stepCount: number;
  query: string;
  outcome: "SUCCESS" | "FAILURE";
  skillsActivated: string[];
  createdAt: Date;
};

export const PROMOTION_CYCLE_JOB = "promotion_cycle";

const keyOf = (scope: string, hash: string) => `${scope}\u0000${hash}`;

/**
 * Never breaks ingestion: the learning bookkeeping runs under a savepoint, and a failure rolls
 * back only that bookkeeping (logged by error kind), never the stored runs.
 */
export async function afterRunsStored(tx: Tx, agentId: string, runs: StoredRun[]): Promise<void> {
  if (runs.length === 0) return;
  await tx.$executeRawUnsafe("SAVEPOINT learning_monitor");
  try {
    await monitorRuns(tx, agentId, runs);
    await tx.$executeRawUnsafe("RELEASE SAVEPOINT learning_monitor");
  } catch (e) {
    await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT learning_monitor");
    const err = e as { name?: string; code?: string };
    console.error(`learning monitor failed for agent ${agentId}: ${err?.name ?? "error"}${err?.code ? ` (${err.code})` : ""}`);
  }
}

async function monitorRuns(tx: Tx, agentId: string, runs: StoredRun[]) {
  const ordered = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const [agent] = await tx.$queryRaw<{ learning: unknown; runs_since_cycle: number }[]>`
    UPDATE agents SET runs_since_cycle = runs_since_cycle + ${runs.length} WHERE id = ${agentId}
    RETURNING learning, runs_since_cycle`;
  if (!agent) return;
  const config = resolveLearningConfig(agent.learning);

  await stampNewRuns(tx, agentId, ordered);
  await monitorActivations(tx, agentId, ordered, config);

  if (config.promotion_every_n_runs > 0 && agent.runs_since_cycle >= config.promotion_every_n_runs) {
    await tx.$executeRaw`UPDATE agents SET runs_since_cycle = 0 WHERE id = ${agentId}`;
    // The agent row is locked by this transaction, so the check below cannot race another batch.
    await tx.$executeRaw`
      INSERT INTO jobs (kind, agent_id, payload, status, run_after)
      SELECT ${PROMOTION_CYCLE_JOB}, ${agentId}, '{}'::jsonb, 'PENDING', now()
      WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ${PROMOTION_CYCLE_JOB} AND agent_id = ${agentId} AND status = 'PENDING')`;
  }
}

/** New runs of a class covered by an ACTIVE skill in the same scope are suppressed at insert. */
async function stampNewRuns(tx: Tx, agentId: string, runs: StoredRun[]) {
  const hashed = runs.filter((r) => r.canonicalHash);
  if (hashed.length === 0) return;
  const hashes = [...new Set(hashed.map((r) => r.canonicalHash!))];
  const active = await tx.$queryRaw<{ id: string; user_scope: string; source_canonical_hash: string }[]>`
    SELECT id, user_scope, source_canonical_hash FROM skills
    WHERE agent_id = ${agentId} AND status = 'ACTIVE' AND source_canonical_hash = ANY(${hashes}::text[])`;
  if (active.length === 0) return;
  const skillFor = new Map(active.map((s) => [keyOf(s.user_scope, s.source_canonical_hash), s.id]));
  const ids: string[] = [];
  const skills: string[] = [];
  for (const r of hashed) {
    const skill = skillFor.get(keyOf(r.userScope, r.canonicalHash!));
    if (skill) {
      ids.push(r.id);
      skills.push(skill);
    }
  }
  if (ids.length === 0) return;
  await tx.$executeRaw`
    UPDATE workflows w SET promoted_skill_id = v.skill
    FROM unnest(${ids}::text[], ${skills}::text[]) AS v(id, skill)
    WHERE w.id = v.id`;
}

type MonitoredSkill = {
  id: string;
  user_scope: string;
  source_canonical_hash: string;
  activations: number;
  successes: number;
  failures: number;
  deviations: number;
  recent_outcomes: boolean[] | null;
  baseline: unknown;
};

/**
 * Attribution for ACTIVE skills only (other ids, other agents' and other scopes' skills are
 * ignored). The rows are locked (in id order, so concurrent batches cannot deadlock) and the
 * counters rewritten from the locked values: concurrent runs never lose an increment.
 */
async function monitorActivations(tx: Tx, agentId: string, runs: StoredRun[], config: ReturnType<typeof resolveLearningConfig>) {
  const ids = [...new Set(runs.flatMap((r) => r.skillsActivated))];
  if (ids.length === 0) return;
  const skills = await tx.$queryRaw<MonitoredSkill[]>`
    SELECT id, user_scope, source_canonical_hash, activations, successes, failures, deviations, recent_outcomes, baseline
    FROM skills WHERE id = ANY(${ids}::text[]) AND agent_id = ${agentId} AND status = 'ACTIVE'
    ORDER BY id FOR UPDATE`;
  const now = new Date();
  let demotedAny = false;
  for (const s of skills) {
    const outcomes: RunOutcome[] = runs
      .filter((r) => r.userScope === s.user_scope && r.skillsActivated.includes(s.id))
      .map((r) => ({ success: r.outcome === "SUCCESS", deviated: r.canonicalHash !== null && r.canonicalHash !== s.source_canonical_hash }));
    if (outcomes.length === 0) continue;
    const rate = (s.baseline as { success_rate?: unknown } | null)?.success_rate;
    const result = applyOutcomes(
      { activations: s.activations, successes: s.successes, failures: s.failures, deviations: s.deviations, recentOutcomes: s.recent_outcomes ?? [] },
      outcomes,
      typeof rate === "number" ? rate : null,
      config,
      now,
    );
    const st = result.state;
    const flag = deviationFlag(st, config);
    await tx.$executeRaw`
      UPDATE skills SET activations = ${st.activations}, successes = ${st.successes}, failures = ${st.failures},
        deviations = ${st.deviations}, recent_outcomes = ${st.recentOutcomes}::boolean[], last_activated_at = ${now},
        review_flags = ${flag ? [flag] : []}::text[], updated_at = ${now}
      WHERE id = ${s.id}`;
    if (result.demotionReason) {
      await tx.$executeRaw`
        UPDATE skills SET status = 'DEMOTED', demoted_at = ${now}, demotion_reason = ${result.demotionReason}
        WHERE id = ${s.id} AND status = 'ACTIVE'`;
      await unstampSkill(tx, s.id);
      await recordSkillEvent(tx, { skillId: s.id, agentId, event: "skill_demoted", reason: result.demotionReason, actor: "system" });
      demotedAny = true;
    }
  }
  if (demotedAny) await bumpSkillsVersion(tx, agentId);
}
