// Import MemoRizz workflow and skill documents (lib/learning/skills-io/memorizz-documents.ts) into
// agents declared here. Runs keep the reference's canonical hash (rule version 1) and become
// trajectory classes; skills keep their id, status, version, authority, baseline, stats and
// demotion (the retirement reason and time, and lifecycle events dated from the document). Only
// documents not imported before are written (runs by agent and workflow_id, skills by skill_id),
// so importing a file again writes nothing. One transaction per agent with its audit row.
// MemoRizz learns per account: an agent that pools its accounts (learning_scope "agent") is set
// to "user" first, its runs regrouped and classes rebuilt (rescopeAgent, audited), so imported
// runs and skills keep their accounts' scopes as they do in MemoRizz.
import { createHash } from "node:crypto";
import type { Db, Tx } from "../../db/prisma";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { applicabilityVectors } from "../inject/applicability";
import { rebuildClasses } from "../capture/backfill";
import { normalizeQuery } from "../capture/canonical";
import { defaultEmbedder, embedTexts } from "../inject/embedder";
import { newId } from "../../db/row-ids";
import { REFERENCE_CANONICAL_VERSION } from "../skills-io/memorizz-reference-hash";
import { timeOf, type MemorizzDocument, type MemorizzSkill, type MemorizzWorkflow, type Refusal } from "../skills-io/memorizz-documents";
import { actorLabel, bumpSkillsVersion, recordSkillEvent, stampClass, type SkillEventKind } from "../skills/lifecycle";
import { rescopeAgent, RESCOPE_TRANSACTION } from "./update-learning-config";

export type ImportMemorizzInput = {
  documents: MemorizzDocument[];
  /** The agent of documents whose agent_id is null (MemoRizz: visible to every agent). */
  agentId?: string;
};

export type ImportMemorizzReport = {
  workflows: { imported: number; already: number };
  skills: { imported: number; already: number };
  refused: Refusal[];
};

type Group = { workflows: MemorizzWorkflow[]; skills: MemorizzSkill[] };

export async function importMemorizz(db: Db, input: ImportMemorizzInput, by: AuditContext): Promise<ImportMemorizzReport> {
  const report: ImportMemorizzReport = { workflows: { imported: 0, already: 0 }, skills: { imported: 0, already: 0 }, refused: [] };
  const groups = new Map<string, Group>();
  for (const d of input.documents) {
    const agentId = d.agentId ?? input.agentId;
    if (!agentId) {
      report.refused.push({ line: d.line, reason: "agent_id is null: name the agent for such documents (--agent)" });
      continue;
    }
    const g = groups.get(agentId) ?? { workflows: [], skills: [] };
    if (d.kind === "workflow") g.workflows.push(d);
    else g.skills.push(d);
    groups.set(agentId, g);
  }
  const known = new Set((await db.agent.findMany({ where: { id: { in: [...groups.keys()] } }, select: { id: true } })).map((a) => a.id));
  for (const [agentId, group] of groups) {
    if (!known.has(agentId)) {
      for (const d of [...group.workflows, ...group.skills]) report.refused.push({ line: d.line, reason: `unknown agent '${agentId}': declare it first (PUT /api/v1/agents/${agentId})` });
      continue;
    }
    await importForAgent(db, agentId, group, report, by);
  }
  report.refused.sort((a, b) => a.line - b.line);
  return report;
}

async function importForAgent(db: Db, agentId: string, group: Group, report: ImportMemorizzReport, by: AuditContext) {
  const storedRuns = new Set(
    (await db.workflowRun.findMany({ where: { agentId, workflowId: { in: group.workflows.map((w) => w.workflowId) } }, select: { workflowId: true } })).map((r) => r.workflowId),
  );
  const storedSkills = new Map(
    (await db.skill.findMany({ where: { id: { in: group.skills.map((s) => s.doc.skill_id) } }, select: { id: true, agentId: true } })).map((s) => [s.id, s.agentId]),
  );
  const runs: MemorizzWorkflow[] = [];
  const seen = new Set<string>();
  let already = 0;
  for (const w of group.workflows) {
    if (storedRuns.has(w.workflowId) || seen.has(w.workflowId)) already += 1;
    else runs.push(w);
    seen.add(w.workflowId);
  }
  const skills: MemorizzSkill[] = [];
  for (const s of group.skills) {
    const owner = storedSkills.get(s.doc.skill_id);
    if (owner !== undefined && owner !== agentId) report.refused.push({ line: s.line, reason: `skill_id ${s.doc.skill_id} is already a skill of another agent` });
    else if (owner !== undefined || seen.has(`skill:${s.doc.skill_id}`)) {
      report.skills.already += 1;
      already += 1;
    } else skills.push(s);
    seen.add(`skill:${s.doc.skill_id}`);
  }
  report.workflows.already += group.workflows.length - runs.length;
  if (runs.length === 0 && skills.length === 0) return;

  const embedder = defaultEmbedder();
  const [runVectors, skillVectors] = await Promise.all([
    embedTexts(embedder, runs.map((r) => r.query)),
    Promise.all(skills.map((s) => applicabilityVectors(embedder, { name: s.doc.name, description: s.doc.description, preconditions: s.doc.preconditions, queries: s.doc.queries }))),
  ]);
  const now = new Date();
  const runRows = runs.map((r, i) => runRow(agentId, r, runVectors.vectors[i], runVectors.embedderId, now));

  await db.$transaction(
    async (tx) => {
      if (await rescopeAgent(tx, agentId, "user", "memorizz_import", by)) {
        await tx.$executeRaw`UPDATE agents SET learning = learning || '{"learning_scope": "user"}'::jsonb WHERE id = ${agentId}`;
      }
      const inserted = await tx.workflowRun.createMany({ data: runRows, skipDuplicates: true });
      const classes = new Map<string, [string, string, string]>();
      for (const r of runs) {
        const key: [string, string, string] | null = r.canonicalHash ? [agentId, r.userId ?? "", r.canonicalHash] : null;
        if (key) classes.set(JSON.stringify(key), key);
      }
      await rebuildClasses(tx, [...classes.values()]);
      if (inserted.count) await countRuns(tx, agentId, inserted.count, runRows);
      const created: string[] = [];
      for (const [i, s] of skills.entries()) created.push(await createSkill(tx, agentId, s, skillVectors[i], by));
      if (created.length) await bumpSkillsVersion(tx, agentId);
      await recordAudit(tx, by, {
        type: "memorizz.imported",
        target: { type: "agent", id: agentId },
        data: { workflows: inserted.count, skills: created, already_imported: already + runRows.length - inserted.count },
      });
      report.workflows.imported += inserted.count;
      report.workflows.already += runRows.length - inserted.count;
      report.skills.imported += created.length;
    },
    RESCOPE_TRANSACTION,
  );
}

function runRow(agentId: string, r: MemorizzWorkflow, embedding: number[], embedderId: string, now: Date): Prisma.WorkflowRunCreateManyInput {
  return {
    id: newId(),
    agentId,
    workflowId: r.workflowId,
    userId: r.userId,
    userScope: r.userId ?? "",
    query: r.query,
    normalizedQuery: normalizeQuery(r.query),
    steps: r.steps as Prisma.InputJsonValue,
    outcome: r.outcome,
    outcomeSource: "REPORTED",
    canonicalSignature: r.signature as unknown as Prisma.InputJsonValue,
    canonicalHash: r.canonicalHash,
    canonicalVersion: REFERENCE_CANONICAL_VERSION,
    stepCount: r.signature.length,
    skillsActivated: r.skillsActivated,
    shadowEvaluations: r.shadowEvaluations as Prisma.InputJsonValue,
    embedding,
    embedderId,
    // The document as read: a later import of a changed document is still "already imported".
    bodyHash: createHash("sha256").update(JSON.stringify(r.document)).digest("hex"),
    createdAt: r.createdAt ?? now,
  };
}

/** The agent's run total and newest run include the imported runs (slot 0 of its counters). */
async function countRuns(tx: Tx, agentId: string, n: number, rows: { createdAt?: Date | string }[]) {
  const newest = new Date(Math.max(...rows.map((r) => new Date(r.createdAt!).getTime())));
  await tx.$executeRaw`
    INSERT INTO agent_run_counters AS r (agent_id, slot, runs, last_run_at) VALUES (${agentId}, 0, ${n}::int, ${newest})
    ON CONFLICT (agent_id, slot) DO UPDATE SET runs = r.runs + EXCLUDED.runs, last_run_at = GREATEST(r.last_run_at, EXCLUDED.last_run_at)`;
}

async function createSkill(tx: Tx, agentId: string, s: MemorizzSkill, v: Awaited<ReturnType<typeof applicabilityVectors>>, by: AuditContext): Promise<string> {
  const d = s.doc;
  const status = d.status.toUpperCase() as "CANDIDATE" | "SHADOW" | "ACTIVE" | "DEPRECATED" | "DEMOTED";
  const createdAt = timeOf(d.created_at) ?? new Date();
  const promotedAt = timeOf(d.promoted_at);
  const demotedAt = timeOf(d.demoted_at);
  const skill = await tx.skill.create({
    data: {
      id: d.skill_id,
      agentId,
      userScope: d.user_id ?? "",
      userId: d.user_id ?? null,
      name: d.name,
      description: d.description,
      preconditions: d.preconditions,
      tools: d.tools_used,
      queries: d.queries,
      content: d.content,
      status,
      version: d.version,
      injectionRole: d.injection_role === "developer" ? "DEVELOPER" : "USER",
      sourceCanonicalHash: d.source_canonical_hash,
      sourceWorkflowIds: d.source_workflow_ids,
      baseline: d.baseline as Prisma.InputJsonValue,
      activations: d.stats.activations,
      successes: d.stats.successes,
      failures: d.stats.failures,
      deviations: d.stats.deviations,
      lastActivatedAt: timeOf(d.stats.last_activated_at),
      recentOutcomes: d.stats.recent_outcomes,
      shadowStats: (d.stats.shadow ?? {}) as Prisma.InputJsonValue,
      reviewFlags: [],
      embedding: v.embedding,
      embedderId: v.embedderId,
      queryEmbeddings: v.queryEmbeddings,
      createdAt,
      promotedAt,
      demotedAt,
      demotionReason: d.demotion_reason ?? null,
    },
    select: { id: true, userScope: true, sourceCanonicalHash: true },
  });
  // The lifecycle as the document dates it: created, activated, retired with its reason.
  const actor = actorLabel(by);
  const events: { event: SkillEventKind; at: Date; reason: string | null }[] = [
    { event: "skill_candidate_created", at: createdAt, reason: "imported from MemoRizz" },
  ];
  if (promotedAt) events.push({ event: "skill_activated", at: promotedAt, reason: "activated in MemoRizz" });
  if (demotedAt && (status === "DEMOTED" || status === "DEPRECATED")) {
    events.push({ event: status === "DEMOTED" ? "skill_demoted" : "skill_deprecated", at: demotedAt, reason: d.demotion_reason ?? null });
  }
  for (const e of events) await recordSkillEvent(tx, { skillId: skill.id, agentId, actor, ...e });
  if (status === "ACTIVE") await stampClass(tx, { id: skill.id, agentId, userScope: skill.userScope, sourceCanonicalHash: skill.sourceCanonicalHash });
  return skill.id;
}
