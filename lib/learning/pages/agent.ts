// One agent's page: its detail, a page of its newest runs, its shadow-evaluation queue and the
// OpenTelemetry traces of it that made no runs, read in parallel; null when there is no such agent.
import "server-only";
import type { Db } from "../../db/prisma";
import { shadowQueueStatus } from "../shadow/queue-status";
import type { SearchParams } from "../../console/url";
import { getAgentDetail } from "../review/agent-list";
import { listRuns, runsQuerySchema } from "../review/run-list";
import { listUnmapped, UNMAPPED_LIST_ROWS } from "../../otlp/unmapped";

export async function loadAgentPage(db: Db, agentId: string, sp: SearchParams) {
  const q = runsQuerySchema.parse({ ...sp, agent: agentId });
  const [agent, { runs, total, capped }, shadow, unmapped] = await Promise.all([
    getAgentDetail(db, agentId),
    listRuns(db, q),
    shadowQueueStatus(db, agentId),
    listUnmapped(db, { agent: agentId, limit: UNMAPPED_LIST_ROWS }),
  ]);
  return agent ? { agent, q, runs, total, capped, shadow, unmapped } : null;
}
