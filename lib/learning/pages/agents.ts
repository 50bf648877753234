// The Agents page's view model: one page of agents with their toolbox and activity.
import "server-only";
import type { Db } from "../../db/prisma";
import { pageParam, type SearchParams } from "../../console/url";
import { listAgentSummaries } from "../review/agent-list";

export const AGENTS_PAGE_SIZE = 25;

export async function loadAgentsPage(db: Db, sp: SearchParams) {
  const page = pageParam(sp);
  const { agents, total } = await listAgentSummaries(db, page, AGENTS_PAGE_SIZE);
  return { page, agents, total };
}
