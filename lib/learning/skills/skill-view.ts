// The skill as the API returns it (GET /api/v1/skills/{skill_id}; its schema is in GET /api/v1/openapi.json). Vectors and
// file bytes are never selected for it: an imported skill's files are listed with their sizes and hashes.
import type { Prisma } from "../../db/generated/client";
import type { LearningConfig } from "../agents/config";
import { shadowReadiness, shadowStatsOf } from "../shadow/readiness";
import { recentEvaluationsOf } from "../shadow/record";
import { importWarningsOf } from "../skills-io/import-warnings";

export const skillViewSelect = {
  id: true,
  agentId: true,
  userId: true,
  userScope: true,
  name: true,
  description: true,
  preconditions: true,
  tools: true,
  queries: true,
  content: true,
  status: true,
  version: true,
  injectionRole: true,
  templateDistilled: true,
  sourceCanonicalHash: true,
  sourceWorkflowIds: true,
  baseline: true,
  activations: true,
  successes: true,
  failures: true,
  deviations: true,
  lastActivatedAt: true,
  recentOutcomes: true,
  shadowStats: true,
  reviewFlags: true,
  createdAt: true,
  updatedAt: true,
  promotedAt: true,
  demotedAt: true,
  demotionReason: true,
  activationReason: true,
  imported: { select: { folder: true, sha256: true, warnings: true } },
  files: { select: { path: true, size: true, sha256: true, executable: true, script: true, text: true }, orderBy: { path: "asc" } },
} satisfies Prisma.SkillSelect;

export type SkillViewRow = Prisma.SkillGetPayload<{ select: typeof skillViewSelect }>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function skillView(s: SkillViewRow, config: LearningConfig) {
  const shadow = shadowStatsOf(s.shadowStats);
  return {
    skill_id: s.id,
    agent_id: s.agentId,
    user_id: s.userId,
    name: s.name,
    description: s.description,
    preconditions: s.preconditions,
    tools: s.tools,
    queries: s.queries,
    content: s.content,
    status: s.status.toLowerCase(),
    version: s.version,
    injection_role: s.injectionRole.toLowerCase(),
    template_distilled: s.templateDistilled,
    source_canonical_hash: s.sourceCanonicalHash,
    source_workflow_ids: s.sourceWorkflowIds,
    baseline: s.baseline,
    stats: {
      activations: s.activations,
      successes: s.successes,
      failures: s.failures,
      deviations: s.deviations,
      last_activated_at: iso(s.lastActivatedAt),
      recent_outcomes: s.recentOutcomes,
      // The published shadow object, extended with the reference's recent_evaluations window.
      shadow: { ...shadow, recent_evaluations: recentEvaluationsOf(s.shadowStats) },
    },
    readiness: shadowReadiness(shadow, config),
    review_flags: s.reviewFlags ?? [],
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    promoted_at: iso(s.promotedAt),
    demoted_at: iso(s.demotedAt),
    demotion_reason: s.demotionReason,
    activation_reason: s.activationReason,
    imported_folder: s.imported ? { name: s.imported.folder, sha256: s.imported.sha256 } : null,
    files: s.files,
    scripts: s.files.filter((f) => f.script).map((f) => f.path),
    review_warnings: importWarningsOf(s.imported?.warnings),
  };
}
