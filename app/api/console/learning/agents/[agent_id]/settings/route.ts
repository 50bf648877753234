// Console: an agent's learning configuration (read by any console user, saved by admins).
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { getAgent } from "@/lib/learning/agents";
import { learningConfigSchema } from "@/lib/learning/config";
import { updateLearningConfig } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", params: agentIdParams }, async ({ params }) => ({ learning: (await getAgent(db(), params.agent_id)).learning }));

// Validated by the agent API's own schema; errors name fields of the configuration (the form's).
export const PUT = route(
  {
    auth: "session",
    role: "ADMIN",
    params: agentIdParams,
    body: z.object({ learning: learningConfigSchema }).strict(),
    bodyErrors: { name: "learning configuration", within: "learning" },
  },
  async ({ params, body, audit }) => ({ learning: await updateLearningConfig(db(), { agentId: params.agent_id, learning: body.learning }, audit) }),
);
