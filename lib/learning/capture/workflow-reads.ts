// Reading stored runs: one run by its Proctor id, and the runs most similar to a query.
import type { Db } from "../../db/prisma";
import { Prisma, type WorkflowRun } from "../../db/generated/client";
import type { WorkflowDetail } from "./schemas";
import { cosine, defaultEmbedder, embedderForId, offlineEmbedder, type Embedder } from "../inject/embedder";
import { NotFound } from "../../errors";
import { agentNotFound } from "../errors";

/**
 * Similarity search ranks at most this many candidate runs in process (no vector index exists
 * here). Candidates are chosen in SQL, however old: the runs sharing most of the query vector's
 * largest coordinates (the generated column embedding_keys, GIN-indexed), newest first among
 * equals. With the offline embedder every run of positive cosine shares one.
 */
export const SEARCH_CANDIDATES = 2000;
/** How many of a vector's largest coordinates are its keys (as embedding_keys() in SQL). */
export const EMBEDDING_KEYS = 32;

/** A vector's keys as embedding_keys() computes them: its largest non-zero coordinates. */
export function embeddingKeys(v: number[]): number[] {
  return v
    .map((x, i) => [Math.abs(Math.fround(x)), i] as const)
    .filter(([x]) => x !== 0)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, EMBEDDING_KEYS)
    .map(([, i]) => i);
}

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
  // The query in each usable space (an embedder unreachable now cannot rank its runs).
  const queryVectors = new Map<string, number[]>();
  const vectors = new Map<Embedder, number[] | null>();
  for (const id of usable) {
    const e = embedderForId(id, embedder);
    if (!e) continue;
    if (!vectors.has(e)) vectors.set(e, await e.embed([input.query]).then((v) => v[0], () => null));
    const v = vectors.get(e);
    if (v) queryVectors.set(id, v);
  }
  if (queryVectors.size === 0) return [];
  const spaces = [...queryVectors].map(([id, v]) => Prisma.sql`(embedder_id = ${id} AND embedding_keys && ${embeddingKeys(v)}::smallint[])`);
  const keysOf = (id: string) => embeddingKeys(queryVectors.get(id)!);
  const overlap = Prisma.join([...queryVectors.keys()].map((id) => Prisma.sql`WHEN ${id} THEN ${keysOf(id)}::smallint[]`), " ");
  const candidates = await db.$queryRaw<{ id: string; embedderId: string; embedding: number[]; createdAt: Date }[]>`
    SELECT id, embedder_id AS "embedderId", embedding, created_at AS "createdAt" FROM workflows
    WHERE agent_id = ${agentId}
      ${input.userId !== undefined ? (input.userId === "" ? Prisma.sql`AND user_id IS NULL` : Prisma.sql`AND user_id = ${input.userId}`) : Prisma.empty}
      ${input.excludePromoted ? Prisma.sql`AND promoted_skill_id IS NULL` : Prisma.empty}
      AND (${Prisma.join(spaces, " OR ")})
    ORDER BY cardinality(ARRAY(SELECT unnest(embedding_keys) INTERSECT SELECT unnest(CASE embedder_id ${overlap} END))) DESC, created_at DESC
    LIMIT ${SEARCH_CANDIDATES}`;
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
