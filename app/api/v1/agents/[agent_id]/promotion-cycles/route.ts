import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { CycleBusyError } from "@/lib/learning/cycle-lock";
import { runLockedPromotionCycle } from "@/lib/learning/engine";
import { listPromotionReports } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const GET = route(v1.listPromotionCycles, async ({ params, query }) =>
  listPromotionReports(db(), params.agent_id, query.limit),
);

export const POST = route(v1.runPromotionCycle, async ({ params, audit }) => {
  try {
    return await runLockedPromotionCycle(db(), params.agent_id, { trigger: "manual", audit });
  } catch (e) {
    if (e instanceof CycleBusyError) throw problems.conflict("A promotion cycle is already running for this agent.");
    throw e;
  }
});
