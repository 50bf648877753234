import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams } from "@/lib/api/v1/schemas";
import { getAgent, upsertAgent } from "@/lib/learning/agents";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: agentParams }, async ({ params }) => getAgent(db(), params.agent_id));

// The body is validated by upsertAgent itself (scripts share the same rules).
export const PUT = route({ auth: "any", scope: "admin", params: agentParams, body: z.unknown() }, async ({ params, body, audit }) =>
  upsertAgent(db(), params.agent_id, body, audit),
);
