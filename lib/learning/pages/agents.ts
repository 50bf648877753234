// The Agents page's view model: one page of agents with their toolbox and activity, and the
// OpenTelemetry traces that made no runs for want of a declared agent.
import "server-only";
import type { Db } from "../../db/prisma";
import { pageParam, type SearchParams } from "../../console/url";
import { listAgentSummaries } from "../review/agent-list";
import { listUnmapped, UNMAPPED_LIST_ROWS } from "../../otlp/unmapped";

export const AGENTS_PAGE_SIZE = 25;

export async function loadAgentsPage(db: Db, sp: SearchParams) {
  const page = pageParam(sp);
  const [{ agents, total }, unmapped] = await Promise.all([listAgentSummaries(db, page, AGENTS_PAGE_SIZE), listUnmapped(db, { agentless: true, limit: UNMAPPED_LIST_ROWS })]);
  return { page, agents, total, unmapped };
}
