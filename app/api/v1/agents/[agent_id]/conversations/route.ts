import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams, conversationBody } from "@/lib/api/v1/schemas";
import { INGEST_RATE_PER_KEY } from "@/lib/api/v1/limits";
import { recordConversation } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "any", scope: "ingest", params: agentParams, body: conversationBody, rateLimit: INGEST_RATE_PER_KEY }, async ({ params, body }) =>
  json(await recordConversation(db(), params.agent_id, body), 201),
);
