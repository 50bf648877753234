// The agent's runs as JSON lines (GET /api/v1/agents/{id}/workflows/export): oldest first, read
// in keyset-paged batches on (created_at, id), so memory stays one batch whatever the agent's
// size and no transaction stays open while the client reads. Each line is a run as
// GET /api/v1/workflows/{id} answers it (the same workflowView, so the same bytes).
// Each page is one tagged-template statement sent through the plain pg pool (queryRows):
// Prisma's findMany decodes rows several times slower, and the export is bound by that decoding
// and the JSON of each run (`npm run bench:lifecycle` measures it beside reading the same rows
// straight from PostgreSQL; figures in docs/benchmarks.md#lifecycle). The output is the same
// either way.
import { queryRows, type Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { agentNotFound } from "../errors";
import { refuseIfDeleting } from "../agents/writable";
import { workflowView, type DetailRow } from "./workflow-reads";

export type WorkflowExportFilter = { from?: string; to?: string; canonical_hash?: string; user_id?: string; outcome?: "success" | "failure" };

/** Runs per query: ~3 KB each, so a batch holds a few MB at most. */
export const EXPORT_BATCH = 500;

/** DETAIL_COLUMNS by their column names, aliased to the fields workflowView reads. */
const COLUMNS = Prisma.sql`id, agent_id AS "agentId", workflow_id AS "workflowId", user_id AS "userId", thread_id AS "threadId",
  root_trace_id AS "rootTraceId", query, steps, execution_error AS "executionError", answer, outcome, outcome_source AS "outcomeSource",
  learning_error AS "learningError", canonical_signature AS "canonicalSignature", canonical_hash AS "canonicalHash",
  canonical_version AS "canonicalVersion", step_count AS "stepCount", promoted_skill_id AS "promotedSkillId",
  skills_activated AS "skillsActivated", shadow_evaluations AS "shadowEvaluations", created_at AS "createdAt", received_at AS "receivedAt"`;

/** Checks the agent first (NotFound, AgentDeleting), then yields one JSON line per run. */
export async function exportWorkflows(db: Db, agentId: string, filter: WorkflowExportFilter, batch = EXPORT_BATCH): Promise<AsyncIterable<string>> {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { deletingAt: true } });
  if (!agent) throw agentNotFound(agentId);
  refuseIfDeleting(agentId, agent.deletingAt);
  const conditions = [
    Prisma.sql`agent_id = ${agentId}`,
    ...(filter.from ? [Prisma.sql`created_at >= ${new Date(filter.from)}`] : []),
    ...(filter.to ? [Prisma.sql`created_at < ${new Date(filter.to)}`] : []),
    // By account: user_id (user_scope is "" for every run under learning_scope "agent").
    ...(filter.user_id !== undefined ? [filter.user_id === "" ? Prisma.sql`user_id IS NULL` : Prisma.sql`user_id = ${filter.user_id}`] : []),
    ...(filter.canonical_hash !== undefined ? [Prisma.sql`canonical_hash = ${filter.canonical_hash}`] : []),
    ...(filter.outcome ? [Prisma.sql`outcome = ${filter.outcome === "success" ? "SUCCESS" : "FAILURE"}::"Outcome"`] : []),
  ];
  return pages(db, Prisma.join(conditions, " AND "), batch);
}

async function* pages(db: Db, where: Prisma.Sql, batch: number): AsyncIterable<string> {
  let after = Prisma.empty;
  for (;;) {
    const rows = await queryRows<DetailRow>(db, Prisma.sql`SELECT ${COLUMNS} FROM workflows WHERE ${where} ${after} ORDER BY created_at, id LIMIT ${batch}::int`);
    if (rows.length > 0) yield rows.map((r) => JSON.stringify(workflowView(r)) + "\n").join("");
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = Prisma.sql`AND (created_at, id) > (${last.createdAt}, ${last.id})`;
  }
}
