// Called by ingestion, inside the ingestion transaction, for newly stored runs that need more
// than the insert statement's own bookkeeping (stamping, counters and the promotion cadence
// live in lib/learning/capture/ingest-sql.ts): outcome monitoring of the ACTIVE skills in
// skills_activated (counters, deviations, rolling window, drift demotion with unstamping, the
// deviation review flag at once). A run that took another path than the skill's class is stored
// as a deviation (skill_deviations) and kept out of the drift window (./drift.ts); the deviation
// flag's appearance is audited. The shadow evaluation outbox is part of the insert statement.
// Cheap by design: a few indexed statements, no scans, no LLM.
import type { Tx } from "../../db/prisma";
import { recordAudit, systemAuditContext } from "../../audit/record";
import type { LearningConfig } from "../agents/config";
import { IMPORT_CLASS_PREFIX } from "../inject/applicability";
import { applyOutcomes, deviationFlag, isDeviationFlag, judgedAgainst, type RunOutcome } from "./drift";
import { bumpSkillsVersion, recordSkillEvent, unstampSkill } from "../skills/lifecycle";

/** What outcome monitoring needs of a newly stored run. */
export type StoredRun = {
  id: string;
  userScope: string;
  canonicalHash: string | null;
  outcome: "SUCCESS" | "FAILURE";
  skillsActivated: string[];
  createdAt: Date;
};

export const PROMOTION_CYCLE_JOB = "promotion_cycle";

/**
 * Never breaks ingestion: the learning bookkeeping runs under a savepoint, and a failure rolls
 * back only that bookkeeping (logged by error kind), never the stored runs.
 */
export async function afterRunsStored(tx: Tx, agentId: string, runs: StoredRun[], config: LearningConfig): Promise<void> {
  if (runs.length === 0) return;
  await tx.$executeRaw`SAVEPOINT learning_monitor`;
  try {
    const ordered = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
    await monitorActivations(tx, agentId, ordered, config);
    await tx.$executeRaw`RELEASE SAVEPOINT learning_monitor`;
  } catch (e) {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT learning_monitor`;
    const err = e as { name?: string; code?: string };
    console.error(`learning monitor failed for agent ${agentId}: ${err?.name ?? "error"}${err?.code ? ` (${err.code})` : ""}`);
  }
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
  review_flags: string[] | null;
  baseline: unknown;
};

/**
 * Attribution for ACTIVE skills only (other ids, other agents' skills and another account's
 * own skills are ignored). The rows are locked (in id order, so concurrent batches cannot deadlock) and the
 * counters rewritten from the locked values: concurrent runs never lose an increment.
 */
async function monitorActivations(tx: Tx, agentId: string, runs: StoredRun[], config: LearningConfig) {
  const ids = [...new Set(runs.flatMap((r) => r.skillsActivated))];
  if (ids.length === 0) return;
  const skills = await tx.$queryRaw<MonitoredSkill[]>`
    SELECT id, user_scope, source_canonical_hash, activations, successes, failures, deviations, recent_outcomes, review_flags, baseline
    FROM skills WHERE id = ANY(${ids}::text[]) AND agent_id = ${agentId} AND status = 'ACTIVE'
    ORDER BY id FOR UPDATE`;
  const now = new Date();
  let demotedAny = false;
  for (const s of skills) {
    // An agent-wide skill (scope "") reaches every account; an account's own skill only its runs.
    const attributed = runs.filter((r) => (s.user_scope === "" || r.userScope === s.user_scope) && r.skillsActivated.includes(s.id));
    const against = judgedAgainst(s.baseline as { success_rate?: unknown; executions?: unknown } | null, s.source_canonical_hash.startsWith(IMPORT_CLASS_PREFIX), config);
    // A run that called no tool did not follow the procedure either; an imported skill has no class to deviate from.
    const outcomes: RunOutcome[] = attributed.map((r) => ({ success: r.outcome === "SUCCESS", deviated: !against.classless && r.canonicalHash !== s.source_canonical_hash }));
    if (outcomes.length === 0) continue;
    const result = applyOutcomes(
      { activations: s.activations, successes: s.successes, failures: s.failures, deviations: s.deviations, recentOutcomes: s.recent_outcomes ?? [] },
      outcomes,
      against.rate,
      config,
      now,
      against.executions,
    );
    const st = result.state;
    const flag = deviationFlag(st, config);
    const otherFlags = (s.review_flags ?? []).filter((f) => !isDeviationFlag(f));
    await tx.$executeRaw`
      UPDATE skills SET activations = ${st.activations}, successes = ${st.successes}, failures = ${st.failures},
        deviations = ${st.deviations}, recent_outcomes = ${st.recentOutcomes}::boolean[], last_activated_at = ${now},
        review_flags = ${flag ? [...otherFlags, flag] : otherFlags}::text[], updated_at = ${now}
      WHERE id = ${s.id}`;
    const deviated = attributed.slice(0, result.applied).filter((_, i) => outcomes[i].deviated);
    if (deviated.length > 0) await recordDeviations(tx, agentId, s.id, deviated);
    if (flag && !(s.review_flags ?? []).some(isDeviationFlag)) {
      await recordAudit(tx, systemAuditContext("ingest"), {
        type: "skill.deviation_flagged",
        target: { type: "skill", id: s.id },
        data: { agent_id: agentId, activations: st.activations, deviations: st.deviations, reason: flag },
      });
    }
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

/** Stores the runs that took another path (a re-delivered run is stored once). */
async function recordDeviations(tx: Tx, agentId: string, skillId: string, runs: StoredRun[]) {
  const rows = JSON.stringify(runs.map((r) => ({ run: r.id, hash: r.canonicalHash, outcome: r.outcome, at: r.createdAt.toISOString() })));
  await tx.$executeRaw`
    INSERT INTO skill_deviations (skill_id, agent_id, workflow_run_id, canonical_hash, outcome, at)
    SELECT ${skillId}, ${agentId}, x.run, x.hash, x.outcome::"Outcome", x.at
    FROM jsonb_to_recordset(${rows}::jsonb) AS x(run text, hash text, outcome text, at timestamptz)
    ORDER BY x.run
    ON CONFLICT (skill_id, workflow_run_id) DO NOTHING`;
}
