// The promotion cycle: staleness sweep → gates → ranking → top max_promotions_per_cycle →
// distillation → validation → storage and stamping → a stored report. "Distill now" is the
// same pipeline restricted to one class; nothing bypasses the gates or the validation gate.
// Reads and LLM calls happen outside transactions; each change commits with its audit row.
// A cycle evaluates only the classes that may have changed since the last one (./class-checks).
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";
import { evaluateClasses, type ClassEvaluation, type ClassStatsRow } from "../classes/class-gates";
import { classesToCheck, markCheckedClasses, marksApply } from "../classes/class-checks";
import { distillAndValidate, type Distiller } from "../distill/distiller";
import { deviationFlag } from "../monitor/drift";
import { applicabilityVectors } from "../inject/applicability";
import { defaultEmbedder } from "../inject/embedder";
// Forgotten or expired runs have no steps left to distill from.
import { payloadKept } from "../monitor/run-privacy";
import { newId } from "../../db/row-ids";
import { toSampleRun, type SampleRun } from "../distill/sample-run";
import type { PreviousVersion } from "../distill/previous-version";
import { parseSkillMd } from "../distill/skill-md";
import { actorLabel, bumpSkillsVersion, LIVE_SKILL_STATUSES, recordSkillEvent, stampClass } from "./lifecycle";
import { toolFieldsOf } from "../distill/tool-mentions";
import { deprecateSkillsMissingTools } from "../monitor/tool-removal";
import { INSUFFICIENT_REASON } from "../distill/validation-gate";
import { agentNotFound } from "../errors";
import { refuseIfDeleting } from "../agents/writable";

export type CycleTrigger = "manual" | "cadence" | "distill";

export type PromotionReportView = {
  id: string;
  agent_id: string;
  trigger: CycleTrigger;
  distiller: "llm" | "template";
  promoted: string[];
  deprecated: string[];
  rejected: { canonical_hash: string; user_id: string | null; distinct_users?: number; reasons: string[] }[];
  skipped: { canonical_hash: string; user_id: string | null; distinct_users?: number; reason: string }[];
  deferred: string[];
  review_flags: string[];
  candidates_considered: number;
  /** The agent's learning scope during the cycle (absent from reports stored before it existed). */
  learning_scope?: LearningConfig["learning_scope"];
  /** Classes with runs after this time were considered for `skipped` (null: all classes). */
  considered_since: string | null;
  started_at: string;
  finished_at: string;
};

export type CycleOptions = {
  trigger: CycleTrigger;
  audit: AuditContext;
  distiller: Distiller;
  /** "Distill now": only this class (every user scope of the hash unless one is given). */
  only?: { canonicalHash: string; userId?: string | null };
};

const MAX_TRIGGER_QUERIES = 8;
const userIdOf = (scope: string) => (scope === "" ? null : scope);
/** How a class appears in the report: its hash, its account (null: agent-wide) and the distinct accounts the gates counted. */
const classRef = (e: ClassEvaluation) => ({ canonical_hash: e.row.canonicalHash, user_id: userIdOf(e.row.userScope), distinct_users: e.stats.distinctUsers });

export function toolboxOf(tools: unknown): Set<string> {
  const names = Array.isArray(tools) ? tools.map((t) => (t && typeof t === "object" ? (t as { name?: unknown }).name : t)) : [];
  return new Set(names.filter((n): n is string => typeof n === "string" && n.trim() !== "").map((n) => n.trim()));
}

/** ACTIVE, SHADOW (and CANDIDATE) skills declaring a tool the toolbox no longer has → DEPRECATED. */
async function stalenessSweep(db: Db, agentId: string, toolbox: Set<string>, opts: CycleOptions): Promise<string[]> {
  const live = await db.skill.findMany({ where: { agentId, status: { in: [...LIVE_SKILL_STATUSES] } }, select: { tools: true } });
  if (live.every((s) => s.tools.every((t) => toolbox.has(t)))) return [];
  return db.$transaction((tx) => deprecateSkillsMissingTools(tx, agentId, toolbox, opts.audit, opts.trigger));
}

async function loadClasses(db: Db, agentId: string, only: CycleOptions["only"]): Promise<ClassStatsRow[]> {
  return db.trajectoryClass.findMany({
    where: {
      agentId,
      ...(only ? { canonicalHash: only.canonicalHash, ...(only.userId !== undefined ? { userScope: only.userId ?? "" } : {}) } : {}),
    },
    select: { agentId: true, userScope: true, canonicalHash: true, tools: true, executions: true, successes: true, distinctQueries: true, distinctUsers: true, firstSeen: true, lastSeen: true },
    orderBy: [{ userScope: "asc" }, { canonicalHash: "asc" }],
  });
}

type Samples = { successes: SampleRun[]; failures: SampleRun[]; queries: string[] };

/** Recent runs of the class (after its last retirement, if any), through the class index. */
async function loadSamples(db: Db, e: ClassEvaluation, config: LearningConfig): Promise<Samples> {
  const where = {
    agentId: e.row.agentId,
    userScope: e.row.userScope,
    canonicalHash: e.row.canonicalHash,
    ...(e.since ? { createdAt: { gt: e.since } } : {}),
  };
  const select = { workflowId: true, query: true, outcome: true, steps: true } as const;
  const [ok, bad, recent] = await Promise.all([
    db.workflowRun.findMany({ where: { ...where, ...payloadKept, outcome: "SUCCESS" }, orderBy: { createdAt: "desc" }, take: config.distill_sample_size, select }),
    config.include_failure_samples > 0
      ? db.workflowRun.findMany({ where: { ...where, ...payloadKept, outcome: "FAILURE" }, orderBy: { createdAt: "desc" }, take: config.include_failure_samples, select })
      : Promise.resolve([]),
    db.workflowRun.findMany({ where, orderBy: { createdAt: "desc" }, take: 200, select: { query: true } }),
  ]);
  const seen = new Set<string>();
  const queries: string[] = [];
  for (const r of recent) {
    const q = r.query.trim();
    if (!q || seen.has(q.toLowerCase())) continue;
    seen.add(q.toLowerCase());
    queries.push(q);
    if (queries.length === MAX_TRIGGER_QUERIES) break;
  }
  return { successes: ok.map(toSampleRun), failures: bad.map(toSampleRun), queries };
}

/** The retired version's recorded outcomes: what the distiller may say about it (never a reviewer's reason). */
async function previousVersionOf(db: Db, skillId: string): Promise<PreviousVersion | null> {
  const s = await db.skill.findUnique({ where: { id: skillId }, select: { version: true, status: true, activations: true, successes: true, failures: true, deviations: true } });
  if (!s || (s.status !== "DEMOTED" && s.status !== "DEPRECATED" && s.status !== "REJECTED")) return null;
  return { version: s.version, status: s.status.toLowerCase() as PreviousVersion["status"], activations: s.activations, successes: s.successes, failures: s.failures, deviations: s.deviations };
}

type Accepted = { e: ClassEvaluation; samples: Samples; content: string };

/** The pipeline, unlocked: callers go through the operations (runPromotionCycle, distillClass), which hold the agent's cycle lock. */
export async function promotionCycle(db: Db, agentId: string, opts: CycleOptions): Promise<PromotionReportView> {
  const startedAt = new Date();
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { tools: true, learning: true, checkedGates: true, deletingAt: true } });
  if (!agent) throw agentNotFound(agentId);
  refuseIfDeleting(agentId, agent.deletingAt);
  const config = resolveLearningConfig(agent.learning);
  const toolbox = toolboxOf(agent.tools);
  const toolFields = toolFieldsOf(agent.tools);

  const deprecated = await stalenessSweep(db, agentId, toolbox, opts);

  const previous = opts.only
    ? null
    : await db.promotionReport.findFirst({ where: { agentId, trigger: { in: ["manual", "cadence"] } }, orderBy: { startedAt: "desc" }, select: { startedAt: true } });
  const consideredSince = previous?.startedAt ?? null;

  const now = new Date();
  const { evaluate: rows, settled } = marksApply(agent.checkedGates, config, consideredSince) && !opts.only
    ? await classesToCheck(db, agentId, config, consideredSince, now)
    : { evaluate: await loadClasses(db, agentId, opts.only), settled: [] };
  const evaluated = await evaluateClasses(db, config, rows, now);

  const rejected: PromotionReportView["rejected"] = [];
  const skipped: PromotionReportView["skipped"] = [];
  if (opts.only && rows.length === 0) skipped.push({ canonical_hash: opts.only.canonicalHash, user_id: opts.only.userId ?? null, reason: "unknown trajectory class" });

  const eligible: ClassEvaluation[] = [];
  for (const e of evaluated) {
    if (e.verdict.eligible) eligible.push(e);
    else if (opts.only || (!e.live && (!consideredSince || e.row.lastSeen > consideredSince))) {
      // Classes with no new runs since the last cycle (or covered by a live skill) are not
      // news: listing them every cycle would bury the ones that changed.
      skipped.push({ ...classRef(e), reason: e.verdict.reason ?? "not eligible" });
    }
  }
  eligible.sort((a, b) => b.score - a.score || b.stats.executions - a.stats.executions || (a.row.canonicalHash < b.row.canonicalHash ? -1 : 1));
  const cap = opts.only ? eligible.length : config.max_promotions_per_cycle;
  const selected = eligible.slice(0, cap);
  const deferred = eligible.slice(cap).map((e) => e.row.canonicalHash);

  const accepted: Accepted[] = [];
  for (const e of selected) {
    const samples = await loadSamples(db, e, config);
    if (samples.successes.length === 0) {
      rejected.push({ ...classRef(e), reasons: ["no sample runs retrievable"] });
      continue;
    }
    const result = await distillAndValidate(
      opts.distiller,
      {
        successes: samples.successes,
        failures: samples.failures,
        previousVersion: e.retired ? await previousVersionOf(db, e.retired.id) : null,
        maxChars: config.skill_max_content_chars,
        toolPath: e.row.tools,
        queries: samples.queries,
        minDistinctQueries: Math.min(config.min_distinct_queries, MAX_TRIGGER_QUERIES),
      },
      toolbox,
      toolFields,
    );
    if (!result.ok) rejected.push({ ...classRef(e), reasons: result.reasons });
    else accepted.push({ e, samples, content: result.content });
  }

  const drafts = await Promise.all(accepted.map((a) => draftSkill(a, agentId, config, opts.distiller)));
  const reviewFlags = await reviewFlagsOf(db, agentId, config);
  if (opts.distiller.templateDistilled && selected.length > 0) {
    reviewFlags.push("no LLM configured: skills were template-distilled (set PROCTOR_LLM_BASE_URL or PROCTOR_LLM_API_KEY for LLM distillation)");
  }

  const reportId = newId();
  const promoted: string[] = [];
  const report = await db.$transaction(
    async (tx) => {
      for (const d of drafts) {
        // The class may have been regrouped meanwhile (its agent's learning scope changed): its
        // row is gone then. Key-share-locked, so a regrouping waits for this transaction.
        const [cls] = await tx.$queryRaw<{ ok: number }[]>`
          SELECT 1 AS ok FROM trajectory_classes
          WHERE agent_id = ${agentId} AND user_scope = ${d.data.userScope} AND canonical_hash = ${d.data.sourceCanonicalHash} FOR KEY SHARE`;
        if (!cls) {
          skipped.push({ canonical_hash: d.data.sourceCanonicalHash, user_id: d.data.userId, reason: "class regrouped during the cycle (learning scope changed)" });
          continue;
        }
        const live = await tx.skill.findFirst({
          where: { agentId, userScope: d.data.userScope, sourceCanonicalHash: d.data.sourceCanonicalHash, status: { in: [...LIVE_SKILL_STATUSES] } },
          select: { id: true },
        });
        if (live) {
          skipped.push({ canonical_hash: d.data.sourceCanonicalHash, user_id: d.data.userId, reason: "already covered by a live skill" });
          continue;
        }
        const created = await tx.skill.create({ data: d.data, select: { id: true } });
        if (d.data.status === "ACTIVE") {
          await stampClass(tx, { id: created.id, agentId, userScope: d.data.userScope, sourceCanonicalHash: d.data.sourceCanonicalHash });
        }
        await recordSkillEvent(tx, {
          skillId: created.id,
          agentId,
          event: d.data.status === "ACTIVE" ? "skill_promoted" : "skill_candidate_created",
          reason: `${opts.trigger} promotion`,
          actor: actorLabel(opts.audit),
        });
        promoted.push(created.id);
      }
      if (promoted.length) await bumpSkillsVersion(tx, agentId);
      const finishedAt = new Date();
      const view: PromotionReportView = {
        id: reportId,
        agent_id: agentId,
        trigger: opts.trigger,
        distiller: opts.distiller.templateDistilled ? "template" : "llm",
        promoted,
        deprecated,
        rejected,
        skipped,
        deferred,
        review_flags: reviewFlags,
        candidates_considered: eligible.length,
        learning_scope: config.learning_scope,
        considered_since: consideredSince?.toISOString() ?? null,
        started_at: startedAt.toISOString(),
        finished_at: finishedAt.toISOString(),
      };
      await tx.promotionReport.create({ data: { id: reportId, agentId, trigger: opts.trigger, report: view, startedAt, finishedAt } });
      const insufficient = rejected.flatMap((r) =>
        r.reasons.filter((x) => x.startsWith(INSUFFICIENT_REASON)).map((x) => ({ canonical_hash: r.canonical_hash, reason: x.slice(INSUFFICIENT_REASON.length).replace(/^: /, "") || "no reason given" })),
      );
      const outcome = {
        report_id: reportId,
        promoted,
        deprecated,
        rejected: rejected.map((r) => r.canonical_hash),
        ...(insufficient.length ? { insufficient } : {}),
        skipped: skipped.length,
        deferred: deferred.length,
      };
      const target = { type: "agent", id: agentId } as const;
      await recordAudit(
        tx,
        opts.audit,
        opts.trigger === "distill"
          ? { type: "class.distilled", target, data: { ...outcome, canonical_hash: opts.only!.canonicalHash } }
          : { type: "promotion_cycle.ran", target, data: { ...outcome, trigger: opts.trigger } },
      );
      return view;
    },
    { maxWait: 15_000, timeout: 60_000 },
  );
  if (!opts.only) await markCheckedClasses(db, agentId, config, { evaluated, settled }, agent.checkedGates);
  return report;
}

/**
 * Review first: a new skill waits in SHADOW for an admin (require_shadow), or as a CANDIDATE
 * when shadow review is off; it goes ACTIVE at once only when the agent explicitly opted out
 * of review (auto_activate, which the schema allows only without require_shadow).
 */
function newSkillStatus(config: Pick<LearningConfig, "require_shadow" | "auto_activate">): "ACTIVE" | "SHADOW" | "CANDIDATE" {
  if (config.require_shadow) return "SHADOW";
  return config.auto_activate ? "ACTIVE" : "CANDIDATE";
}

async function draftSkill(a: Accepted, agentId: string, config: LearningConfig, distiller: Distiller) {
  const fm = parseSkillMd(a.content)!.frontmatter;
  const vectors = await applicabilityVectors(defaultEmbedder(), {
    name: fm.name,
    description: fm.description,
    preconditions: fm.preconditions,
    queries: a.samples.queries,
  });
  const status = newSkillStatus(config);
  const active = status === "ACTIVE";
  const now = new Date();
  return {
    data: {
      agentId,
      userScope: a.e.row.userScope,
      userId: userIdOf(a.e.row.userScope),
      name: fm.name,
      description: fm.description,
      preconditions: fm.preconditions,
      tools: fm.tools,
      queries: a.samples.queries,
      content: a.content,
      status,
      version: a.e.maxVersion + 1,
      injectionRole: config.skill_injection_role === "developer" ? ("DEVELOPER" as const) : ("USER" as const),
      templateDistilled: distiller.templateDistilled,
      sourceCanonicalHash: a.e.row.canonicalHash,
      sourceWorkflowIds: a.samples.successes.map((s) => s.workflowId),
      // Frozen at creation from the same window the gates used.
      baseline: {
        executions: a.e.stats.executions,
        success_rate: a.e.stats.executions ? a.e.stats.successes / a.e.stats.executions : 0,
        window_start: a.e.stats.firstSeen?.toISOString() ?? null,
        window_end: a.e.stats.lastSeen?.toISOString() ?? null,
      },
      recentOutcomes: [],
      reviewFlags: [],
      embedding: vectors.embedding,
      embedderId: vectors.embedderId,
      queryEmbeddings: vectors.queryEmbeddings,
      promotedAt: active ? now : null,
    },
  };
}

/** Live skills whose runs mostly took another path: flagged for review, never demoted for it. */
async function reviewFlagsOf(db: Db, agentId: string, config: LearningConfig): Promise<string[]> {
  const skills = await db.skill.findMany({
    where: { agentId, status: { in: ["ACTIVE", "SHADOW"] }, activations: { gte: Math.max(1, config.min_activations_before_drift_check) } },
    select: { id: true, name: true, version: true, activations: true, deviations: true },
  });
  return skills.flatMap((s) => {
    const flag = deviationFlag(s, config);
    return flag ? [`skill ${s.id} (${s.name} v${s.version}): ${flag}`] : [];
  });
}
