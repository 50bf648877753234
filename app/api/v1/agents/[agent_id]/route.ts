import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams, agentPutBody } from "@/lib/api/v1/schemas";
import { getAgent } from "@/lib/learning/agents";
import { declareAgent } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: agentParams }, async ({ params }) => getAgent(db(), params.agent_id));

export const PUT = route({ auth: "any", scope: "admin", params: agentParams, body: agentPutBody }, async ({ params, body, audit }) =>
  declareAgent(db(), { agentId: params.agent_id, ...body }, audit),
);
