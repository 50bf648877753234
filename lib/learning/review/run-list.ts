// Read models of workflow runs for console pages: a filtered, server-paginated list (no step
// payloads) and one run in full.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { cappedCount } from "../../console/keyset";
import { errorClass, orderSteps } from "../capture/canonical";

const optionalText = (max: number) => z.string().trim().max(max).optional().transform((v) => v || undefined);

/** URL parameters of the runs tables (workflows page, agent detail page). */
export const runsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  page_size: z.coerce.number().int().min(1).max(200).catch(25),
  dir: z.enum(["asc", "desc"]).catch("desc"),
  agent: optionalText(128).catch(undefined),
  outcome: z.enum(["success", "failure"]).optional().catch(undefined),
  user: optionalText(256).catch(undefined),
});

export type RunsQuery = z.output<typeof runsQuerySchema>;

export type RunSummary = {
  id: string;
  agentId: string;
  workflowId: string;
  userId: string | null;
  query: string;
  outcome: "SUCCESS" | "FAILURE";
  outcomeSource: string;
  stepCount: number;
  learningError: string | null;
  createdAt: Date;
};

/**
 * A page of runs, newest (or oldest) first through the (created_at, id) index, or the agent's.
 * The total comes from the run counters kept at ingestion when only the agent filters;
 * otherwise it is counted up to COUNT_CAP (`capped` beyond).
 */
export async function listRuns(database: Db, q: RunsQuery): Promise<{ runs: RunSummary[]; total: number; capped: boolean }> {
  const where: Prisma.WorkflowRunWhereInput = {
    ...(q.agent ? { agentId: q.agent } : {}),
    ...(q.outcome ? { outcome: q.outcome === "success" ? "SUCCESS" : "FAILURE" } : {}),
    ...(q.user ? { userId: q.user } : {}),
  };
  const [runs, count] = await Promise.all([
    database.workflowRun.findMany({
      where,
      select: {
        id: true, agentId: true, workflowId: true, userId: true, query: true, outcome: true,
        outcomeSource: true, stepCount: true, learningError: true, createdAt: true,
      },
      orderBy: [{ createdAt: q.dir }, { id: q.dir }],
      skip: (q.page - 1) * q.page_size,
      take: q.page_size,
    }),
    q.outcome || q.user ? cappedCount(database, filteredRuns(q)) : counted(database, q.agent),
  ]);
  return { runs, ...count };
}

async function counted(database: Db, agent: string | undefined) {
  const [{ n }] = await database.$queryRaw<{ n: number }[]>`
    SELECT COALESCE(sum(runs), 0)::int AS n FROM agent_run_counters ${agent ? Prisma.sql`WHERE agent_id = ${agent}` : Prisma.empty}`;
  return { total: n, capped: false };
}

const filteredRuns = (q: RunsQuery) => Prisma.sql`
  SELECT 1 FROM workflows WHERE TRUE
  ${q.agent ? Prisma.sql`AND agent_id = ${q.agent}` : Prisma.empty}
  ${q.outcome ? Prisma.sql`AND outcome = ${q.outcome === "success" ? "SUCCESS" : "FAILURE"}::"Outcome"` : Prisma.empty}
  ${q.user ? Prisma.sql`AND user_id = ${q.user}` : Prisma.empty}`;

export type RunStep = { tool: string; arguments?: unknown; result?: unknown; error?: unknown; timestamp?: string | null };

export async function getRun(database: Db, id: string) {
  const run = await database.workflowRun.findUnique({
    where: { id },
    select: {
      id: true, agentId: true, workflowId: true, userId: true, threadId: true, rootTraceId: true, query: true,
      steps: true, executionError: true, answer: true, outcome: true, outcomeSource: true, learningError: true,
      canonicalHash: true, stepCount: true, promotedSkillId: true, skillsActivated: true, createdAt: true, receivedAt: true,
      forgottenAt: true, expiredAt: true,
      agent: { select: { name: true } },
    },
  });
  if (!run) return null;
  const steps = (Array.isArray(run.steps) ? run.steps : []) as RunStep[];
  /** The error type the run ended on, when its outcome was decided by it. */
  const lastStepError = run.outcomeSource === "STEP_ERROR" ? errorClass(orderSteps(steps).at(-1)?.error) : null;
  return { ...run, steps, lastStepError };
}
