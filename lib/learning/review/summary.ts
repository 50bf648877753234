// The workflows page's summary strip and its agents roll-up, from maintained counters: the
// agents' run counters and the write-time class statistics (never a count over the runs).
import type { Db } from "../../db/prisma";
import type { AgentConfig } from "./agent-configs";
import type { StatusCounts } from "./class-list";

export type WorkflowSummary = {
  recordedRuns: number;
  /** Runs that made tool calls (the ones grouped into classes) and how many of them succeeded. */
  classedRuns: number;
  classedSuccesses: number;
  classes: number;
  counts: StatusCounts;
  newestRun: Date | null;
};

type Totals = { runs: number; newest: Date | null; classes: number; executions: number; successes: number };

async function totals(db: Db, agentIds: string[]): Promise<Map<string, Totals>> {
  const rows = await db.$queryRaw<{ agent_id: string; runs: number; newest: Date | null; classes: number; executions: number; successes: number }[]>`
    SELECT a.id AS agent_id, COALESCE(r.runs, 0)::int AS runs, r.newest,
      COALESCE(c.classes, 0)::int AS classes, COALESCE(c.executions, 0)::float8 AS executions, COALESCE(c.successes, 0)::float8 AS successes
    FROM agents a
    LEFT JOIN (
      SELECT agent_id, count(*) AS classes, sum(executions) AS executions, sum(successes) AS successes
      FROM trajectory_classes WHERE agent_id = ANY(${agentIds}::text[]) GROUP BY agent_id
    ) c ON c.agent_id = a.id
    LEFT JOIN (
      SELECT agent_id, sum(runs) AS runs, max(last_run_at) AS newest
      FROM agent_run_counters WHERE agent_id = ANY(${agentIds}::text[]) GROUP BY agent_id
    ) r ON r.agent_id = a.id
    WHERE a.id = ANY(${agentIds}::text[])`;
  return new Map(rows.map((r) => [r.agent_id, { runs: r.runs, newest: r.newest, classes: r.classes, executions: r.executions, successes: r.successes }]));
}

/** `counts`: the agents' unfiltered class status counts (from the class list or classStatusCountsByAgent). */
export async function workflowSummary(db: Db, agents: AgentConfig[], counts: StatusCounts): Promise<WorkflowSummary> {
  const t = await totals(db, agents.map((a) => a.id));
  let recordedRuns = 0, classedRuns = 0, classedSuccesses = 0, classes = 0;
  let newestRun: Date | null = null;
  for (const v of t.values()) {
    recordedRuns += v.runs;
    classedRuns += v.executions;
    classedSuccesses += v.successes;
    classes += v.classes;
    if (v.newest && (!newestRun || v.newest > newestRun)) newestRun = v.newest;
  }
  return { recordedRuns, classedRuns, classedSuccesses, classes, counts, newestRun };
}

export type AgentRollupRow = { id: string; name: string; runs: number; newestRun: Date | null; classes: number; successRate: number | null; counts: StatusCounts };

/** One page of agents (by id) with their unfiltered class counts by status (`byAgent`). */
export async function agentRollup(db: Db, agents: AgentConfig[], byAgent: Map<string, StatusCounts>, page: number, pageSize: number): Promise<{ rows: AgentRollupRow[]; total: number }> {
  const slice = agents.slice((page - 1) * pageSize, page * pageSize);
  const t = await totals(db, slice.map((a) => a.id));
  return {
    total: agents.length,
    rows: slice.map((a) => {
      const v = t.get(a.id) ?? { runs: 0, newest: null, classes: 0, executions: 0, successes: 0 };
      return {
        id: a.id,
        name: a.name,
        runs: v.runs,
        newestRun: v.newest,
        classes: v.classes,
        successRate: v.executions > 0 ? v.successes / v.executions : null,
        counts: byAgent.get(a.id)!,
      };
    }),
  };
}
