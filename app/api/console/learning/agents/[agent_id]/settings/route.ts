// Console: an agent's learning configuration (read by any console user, saved by admins).
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/learning/api-schemas";
import { getAgent } from "@/lib/learning/agents";
import { updateLearningConfig } from "@/lib/learning/review/settings";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", params: agentIdParams }, async ({ params }) => ({ learning: (await getAgent(db(), params.agent_id)).learning }));

// The configuration itself is validated by updateLearningConfig (the API's own schema).
export const PUT = route({ auth: "session", role: "ADMIN", params: agentIdParams, body: z.object({ learning: z.unknown() }).strict() }, async ({ params, body, audit }) => ({
  learning: await updateLearningConfig(db(), params.agent_id, body.learning, audit),
}));
