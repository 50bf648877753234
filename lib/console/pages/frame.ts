// The console frame's view model: the agent switcher's options and the sidebar's inbox counts
// for the agent the page looks at. A layout does not see the page's address, so the proxy
// hands it over (CONSOLE_URL_HEADER, lib/console/agent-scope.ts); a run page's agent is its run's, so that the switcher
// shows it from the first paint instead of "All agents".
import "server-only";
import type { Db } from "../../db/prisma";
import type { Scope } from "../../auth/access";
import { agentOptions } from "../../learning/review/agent-list";
import { scopedAgent } from "../agent-scope";
import { inboxCounts } from "../inbox";

const RUN_PATH = /^\/workflows\/runs\/([^/]+)$/;

/** The agent of the run a run page shows, or "". */
async function runAgent(db: Db, pathname: string): Promise<string> {
  const m = RUN_PATH.exec(pathname);
  if (!m) return "";
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    return "";
  }
  return (await db.workflowRun.findUnique({ where: { id }, select: { agentId: true } }))?.agentId ?? "";
}

/** `url`: the page's path and query (none: the frame of an unknown page, for all agents). */
export async function loadConsoleFrame(db: Db, can: (scope: Scope) => boolean, url: string | null) {
  const { pathname, searchParams } = new URL(url ?? "/", "http://console.invalid");
  const agent = scopedAgent(pathname, searchParams) || (await runAgent(db, pathname));
  const [agents, inbox] = await Promise.all([agentOptions(db), inboxCounts(db, can, agent || undefined)]);
  return { agents, inbox, scope: { pathname, agent } };
}
