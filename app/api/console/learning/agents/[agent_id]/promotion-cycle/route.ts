// Console "Run promotion cycle" (admins).
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { cycleBody, runManualCycle } from "@/lib/learning/review/actions";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: agentIdParams, body: cycleBody }, async ({ params, audit }) =>
  runManualCycle(db(), params.agent_id, audit),
);
