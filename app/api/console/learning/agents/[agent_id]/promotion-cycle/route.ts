// Console "Run promotion cycle" (admins).
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { cycleBody, runPromotionCycle } from "@/lib/learning/operations";
import { withSkillNames } from "@/lib/learning/review/reports";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: agentIdParams, body: cycleBody }, async ({ params, audit }) =>
  withSkillNames(db(), await runPromotionCycle(db(), { agentId: params.agent_id, trigger: "manual" }, audit)),
);
