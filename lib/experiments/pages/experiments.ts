// The experiments list: a page of experiments, newest first, filtered by the agent in scope
// (`agent=`, as the other lists) and status, with each one's progress (reported / expected).
import "server-only";
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { Prisma } from "../../db/generated/client";
import { agentParam } from "../../console/agent-scope";
import { filterText, pageParam, param, type SearchParams } from "../../console/url";
import { expectedRuns, experimentIdentity } from "../experiments";

export const PAGE_SIZE = 25;
export const EXPERIMENT_STATUSES = ["draft", "running", "completed", "cancelled"] as const;

const statusParam = z.enum(EXPERIMENT_STATUSES).optional().catch(undefined);

export type ExperimentSummary = ReturnType<typeof experimentIdentity> & {
  arms: number;
  cases: number;
  progress: { expected: number; reported: number };
  created_at: string;
};

export async function loadExperimentsPage(db: Db, sp: SearchParams) {
  const q = { agent: filterText(agentParam(sp)), status: statusParam.parse(param(sp, "status")), page: pageParam(sp) };
  const where: Prisma.ExperimentWhereInput = { agentId: q.agent, status: q.status ? (q.status.toUpperCase() as Prisma.ExperimentWhereInput["status"]) : undefined };
  const [rows, total] = await Promise.all([
    db.experiment.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (q.page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
      include: { _count: { select: { cases: true } } },
    }),
    db.experiment.count({ where }),
  ]);
  const reported = rows.length
    ? await db.experimentRun.groupBy({ by: ["experimentId"], where: { experimentId: { in: rows.map((r) => r.id) }, reportedAt: { not: null } }, _count: { _all: true } })
    : [];
  const reportedOf = new Map(reported.map((r) => [r.experimentId, r._count._all]));
  const experiments: ExperimentSummary[] = rows.map((e) => ({
    ...experimentIdentity(e),
    arms: (e.arms as unknown[]).length,
    cases: e._count.cases,
    progress: { expected: expectedRuns(e, e._count.cases), reported: reportedOf.get(e.id) ?? 0 },
    created_at: e.createdAt.toISOString(),
  }));
  return { q, experiments, total, filtered: Boolean(q.agent || q.status) };
}
