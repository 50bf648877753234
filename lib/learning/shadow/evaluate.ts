// One shadow evaluation job, as MemoRizz's shadow worker runs it: candidate SHADOW skills by
// applicability similarity among the skills the run's account may receive (the agent-wide ones,
// plus its own under learning_scope "user": the context request's rule; filters before the top-k);
// each candidate reloaded (locked) and required still SHADOW, in those scopes, created strictly
// before the run (timestamptz, so UTC); source runs skipped; one idempotent versioned record
// per (run, skill, evaluator version), enforced by a unique key; the skill's statistics updated
// from the new record in the same transaction. No prompt, no LLM, no tool, no lifecycle change.
import type { Db } from "../../db/prisma";
import { resolveLearningConfig, skillScopesFor } from "../agents/config";
import { shadowReadiness, shadowStatsOf } from "./readiness";
import { emitWebhookEvent } from "../../webhooks/emit";
import type { Embedder } from "../inject/embedder";
import { scoreSkills } from "../inject/retrieval";
import { applyRecord, buildRecord, EVALUATOR_VERSION } from "./record";

type Run = {
  id: string;
  agent_id: string;
  workflow_id: string;
  user_id: string | null;
  query: string;
  canonical_hash: string | null;
  step_count: number;
  outcome: "SUCCESS" | "FAILURE";
  created_at: Date;
  learning: unknown;
  skills_version: number;
};

type LockedSkill = {
  id: string;
  agent_id: string;
  user_scope: string;
  status: string;
  version: number;
  name: string;
  source_canonical_hash: string | null;
  source_workflow_ids: string[];
  shadow_stats: unknown;
  created_at: Date;
};

/** Evaluates one stored run against the agent's SHADOW skills; returns the number of new records. */
export async function evaluateShadowRun(db: Db, runId: string, opts: { embedder?: Embedder; now?: () => Date } = {}): Promise<number> {
  const [run] = await db.$queryRaw<Run[]>`
    SELECT w.id, w.agent_id, w.workflow_id, w.user_id, w.query, w.canonical_hash, w.step_count,
      w.outcome::text AS outcome, w.created_at, a.learning, a.skills_version
    FROM workflows w JOIN agents a ON a.id = w.agent_id WHERE w.id = ${runId}`;
  // A run deleted since (its agent was deleted) has nothing left to evaluate.
  if (!run || !run.canonical_hash || run.query.trim() === "" || run.step_count < 1) return 0;
  const config = resolveLearningConfig(run.learning);
  if (!config.shadow_evaluation_enabled) return 0;

  const scopes = skillScopesFor(config, run.user_id);
  const candidates = await scoreSkills(
    db,
    { id: run.agent_id, skillsVersion: run.skills_version },
    scopes,
    run.query,
    {
      status: "SHADOW",
      minSimilarity: config.shadow_evaluation_min_similarity ?? config.retrieval_min_similarity,
      limit: config.shadow_evaluation_max_candidates,
    },
    opts.embedder,
  );
  if (candidates.length === 0) return 0;

  const hash = run.canonical_hash;
  return db.$transaction(async (tx) => {
    // Locked in id order (no deadlock between workers): the status check, the record and the
    // statistics cannot interleave with an activation or another worker's update of the skill.
    const locked = await tx.$queryRaw<LockedSkill[]>`
      SELECT id, agent_id, user_scope, status::text AS status, version, name, source_canonical_hash, source_workflow_ids, shadow_stats, created_at
      FROM skills WHERE id = ANY(${candidates.map((c) => c.skillId)}::text[]) ORDER BY id FOR UPDATE`;
    const byId = new Map(locked.map((s) => [s.id, s]));
    let created = 0;
    for (const c of candidates) {
      const skill = byId.get(c.skillId);
      if (!skill || skill.status !== "SHADOW" || skill.agent_id !== run.agent_id || !scopes.includes(skill.user_scope)) continue;
      if (!(skill.created_at.getTime() < run.created_at.getTime())) continue;
      if (skill.source_workflow_ids.includes(run.workflow_id) || skill.source_workflow_ids.includes(run.id)) continue;
      const now = opts.now?.() ?? new Date();
      const record = buildRecord(
        { id: run.id, canonicalHash: hash, outcome: run.outcome },
        { id: skill.id, version: skill.version, sourceCanonicalHash: skill.source_canonical_hash },
        c.similarity,
        now,
      );
      const inserted = await tx.$executeRaw`
        INSERT INTO shadow_evaluations (agent_id, workflow_run_id, skill_id, skill_version, evaluator_version, record, evaluated_at)
        VALUES (${run.agent_id}, ${run.id}, ${skill.id}, ${skill.version}, ${EVALUATOR_VERSION}, ${JSON.stringify(record)}::jsonb, ${now})
        ON CONFLICT (workflow_run_id, skill_id, evaluator_version) DO NOTHING`;
      // Already recorded (a retried job): the statistics already count it.
      if (inserted === 0) continue;
      await tx.$executeRaw`
        UPDATE workflows SET shadow_evaluations = shadow_evaluations || jsonb_build_array(${JSON.stringify(record)}::jsonb) WHERE id = ${run.id}`;
      const stats = applyRecord(skill.shadow_stats, record, config.shadow_evaluation_recent_window);
      await tx.$executeRaw`UPDATE skills SET shadow_stats = ${JSON.stringify(stats)}::jsonb WHERE id = ${skill.id}`;
      // Readiness met by this record (not before it): announced once, with the change.
      if (shadowReadiness(stats, config).ready && !shadowReadiness(shadowStatsOf(skill.shadow_stats), config).ready) {
        await emitWebhookEvent(tx, "skill.ready_for_review", {
          skill_id: skill.id,
          agent_id: skill.agent_id,
          name: skill.name,
          version: skill.version,
          status: "shadow",
        });
      }
      skill.shadow_stats = stats;
      created++;
    }
    return created;
  });
}
