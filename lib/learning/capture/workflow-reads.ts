// Reading stored runs: one run by its Proctor id, and the runs most similar to a query.
import type { Db } from "../../db/prisma";
import type { WorkflowRun } from "../../db/generated/client";
import type { WorkflowDetail } from "./schemas";
import { cosine, defaultEmbedder, embedderForId, offlineEmbedder, type Embedder } from "../inject/embedder";
import { NotFound } from "../../errors";
import { agentNotFound } from "../errors";

/**
 * Similarity search ranks at most this many of the newest candidate runs (of the agent, or of the
 * user when given). Without a vector index the ranking happens in process; bounding it keeps a
 * big agent's search at one indexed range read of narrow rows (id and vector), and the runs an
 * agent most likely wants to reuse are recent ones.
 */
export const SEARCH_CANDIDATES = 2000;

export const DETAIL_COLUMNS = {
  id: true, agentId: true, workflowId: true, userId: true, threadId: true, rootTraceId: true, query: true, steps: true,
  executionError: true, answer: true, outcome: true, outcomeSource: true, learningError: true, canonicalSignature: true,
  canonicalHash: true, canonicalVersion: true, stepCount: true, promotedSkillId: true, skillsActivated: true,
  shadowEvaluations: true, createdAt: true, receivedAt: true,
} as const;

export type DetailRow = Pick<WorkflowRun, keyof typeof DETAIL_COLUMNS>;

export function workflowView(r: DetailRow): WorkflowDetail {
  return {
    id: r.id,
    agent_id: r.agentId,
    workflow_id: r.workflowId,
    user_id: r.userId,
    thread_id: r.threadId,
    root_trace_id: r.rootTraceId,
    query: r.query,
    steps: r.steps as WorkflowDetail["steps"],
    execution_error: r.executionError ?? null,
    answer: r.answer,
    outcome: r.outcome === "SUCCESS" ? "success" : "failure",
    outcome_source: r.outcomeSource.toLowerCase() as WorkflowDetail["outcome_source"],
    learning_error: r.learningError,
    canonical_signature: (r.canonicalSignature as WorkflowDetail["canonical_signature"]) ?? null,
    canonical_hash: r.canonicalHash,
    canonical_version: r.canonicalVersion,
    step_count: r.stepCount,
    promoted_skill_id: r.promotedSkillId,
    skills_activated: r.skillsActivated,
    shadow_evaluations: r.shadowEvaluations as WorkflowDetail["shadow_evaluations"],
    created_at: r.createdAt.toISOString(),
    received_at: r.receivedAt.toISOString(),
  };
}

export async function getWorkflow(db: Db, id: string): Promise<WorkflowDetail> {
  const row = await db.workflowRun.findUnique({ where: { id }, select: DETAIL_COLUMNS });
  if (!row) throw new NotFound(`Workflow '${id}'`);
  return workflowView(row);
}

export type SearchInput = { query: string; userId?: string; limit: number; excludePromoted: boolean };

/**
 * The agent's runs most similar to `query`. Runs stamped as covered by an ACTIVE skill are left
 * out unless `excludePromoted` is false. Each candidate is compared with the query embedded by
 * the candidate's own embedder; runs whose embedder is no longer available are skipped.
 */
export async function searchWorkflows(db: Db, agentId: string, input: SearchInput, embedder: Embedder = defaultEmbedder()) {
  if ((await db.agent.count({ where: { id: agentId } })) === 0) throw agentNotFound(agentId);
  const usable = [...new Set([embedder.id, offlineEmbedder.id, ...offlineEmbedder.previousIds])];
  const candidates = await db.workflowRun.findMany({
    where: {
      agentId,
      // By account (user_id): under learning_scope "agent" every run's user scope is "".
      ...(input.userId !== undefined ? { userId: input.userId === "" ? null : input.userId } : {}),
      ...(input.excludePromoted ? { promotedSkillId: null } : {}),
      embedderId: { in: usable },
    },
    orderBy: { createdAt: "desc" },
    take: SEARCH_CANDIDATES,
    select: { id: true, embedderId: true, embedding: true, createdAt: true },
  });
  const queryVectors = new Map<string, number[]>();
  for (const id of new Set(candidates.map((c) => c.embedderId))) {
    const e = embedderForId(id, embedder);
    if (!e) continue;
    try {
      queryVectors.set(id, (await e.embed([input.query]))[0]);
    } catch {
      // That embedder is unreachable now; its runs cannot be ranked against this query.
    }
  }
  const ranked = candidates
    .filter((c) => queryVectors.has(c.embedderId))
    .map((c) => ({ id: c.id, createdAt: c.createdAt, similarity: cosine(queryVectors.get(c.embedderId)!, c.embedding) }))
    .sort((a, b) => b.similarity - a.similarity || b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, input.limit);
  const rows = await db.workflowRun.findMany({ where: { id: { in: ranked.map((r) => r.id) } }, select: DETAIL_COLUMNS });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked
    .filter((r) => byId.has(r.id))
    .map((r) => ({ ...workflowView(byId.get(r.id)!), similarity: Math.round(r.similarity * 1e6) / 1e6 }));
}
