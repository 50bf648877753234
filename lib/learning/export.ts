// The agent's runs as JSON lines (GET /api/v1/agents/{id}/workflows/export): oldest first, read
// in keyset-paged batches on (created_at, id), so memory stays one batch whatever the agent's
// size and no transaction stays open while the client reads. Each line is a run as
// GET /api/v1/workflows/{id} answers it.
import type { Db } from "../db/prisma";
import type { Prisma } from "../db/generated/client";
import { agentNotFound } from "./errors";
import { refuseIfDeleting } from "./agent-writes";
import { DETAIL_COLUMNS, workflowView } from "./workflows";

export type WorkflowExportFilter = { from?: string; to?: string; canonical_hash?: string; user_id?: string; outcome?: "success" | "failure" };

/** Runs per query: ~3 KB each, so a batch holds a few MB at most. */
export const EXPORT_BATCH = 500;

/** Checks the agent first (NotFound, AgentDeleting), then yields one JSON line per run. */
export async function exportWorkflows(db: Db, agentId: string, filter: WorkflowExportFilter, batch = EXPORT_BATCH): Promise<AsyncIterable<string>> {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { deletingAt: true } });
  if (!agent) throw agentNotFound(agentId);
  refuseIfDeleting(agentId, agent.deletingAt);
  const where: Prisma.WorkflowRunWhereInput = {
    agentId,
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: new Date(filter.from) } : {}), ...(filter.to ? { lt: new Date(filter.to) } : {}) } } : {}),
    // user_scope is the indexed spelling of user_id ("" for none).
    ...(filter.user_id !== undefined ? { userScope: filter.user_id } : {}),
    ...(filter.canonical_hash !== undefined ? { canonicalHash: filter.canonical_hash } : {}),
    ...(filter.outcome ? { outcome: filter.outcome === "success" ? "SUCCESS" : "FAILURE" } : {}),
  } as const;
  return pages(db, where, batch);
}

async function* pages(db: Db, where: Prisma.WorkflowRunWhereInput, batch: number): AsyncIterable<string> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: Prisma.WorkflowRunGetPayload<{ select: typeof DETAIL_COLUMNS }>[] = await db.workflowRun.findMany({
      where: after
        ? { AND: [where, { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] }] }
        : where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: batch,
      select: DETAIL_COLUMNS,
    });
    if (rows.length > 0) yield rows.map((r) => JSON.stringify(workflowView(r)) + "\n").join("");
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}
