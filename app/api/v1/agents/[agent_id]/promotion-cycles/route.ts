import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { runPromotionCycle } from "@/lib/learning/operations";
import { listPromotionReports } from "@/lib/learning/skills/skill-reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.listPromotionCycles, async ({ params, query }) =>
  listPromotionReports(db(), params.agent_id, query.limit),
);

export const POST = route(v1.runPromotionCycle, async ({ params, audit }) =>
  runPromotionCycle(db(), { agentId: params.agent_id, trigger: "manual" }, audit),
);
