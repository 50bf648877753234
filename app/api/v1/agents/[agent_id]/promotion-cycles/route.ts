import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams, reportListQuery } from "@/lib/api/v1/learning";
import { runPromotionCycle } from "@/lib/learning/operations";
import { listPromotionReports } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: agentIdParams, query: reportListQuery }, async ({ params, query }) =>
  listPromotionReports(db(), params.agent_id, query.limit),
);

export const POST = route({ auth: "any", scope: "admin", params: agentIdParams }, async ({ params, audit }) =>
  runPromotionCycle(db(), { agentId: params.agent_id, trigger: "manual" }, audit),
);
