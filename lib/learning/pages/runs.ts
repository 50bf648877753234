// The Workflows → Runs page's view model: a filtered page of runs and the agent filter's options.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { agentOptions } from "../review/agent-list";
import { listRuns, runsQuerySchema } from "../review/run-list";

export async function loadRunsPage(db: Db, sp: SearchParams) {
  const q = runsQuerySchema.parse(sp);
  const [{ runs, total, capped }, agents] = await Promise.all([listRuns(db, q), agentOptions(db)]);
  return { q, runs, total, capped, agents, filtered: Boolean(q.agent || q.outcome || q.user) };
}
