import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { contextBody } from "@/lib/learning/schemas";
import { agentContext } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "apiKey", scope: "ingest", params: agentIdParams, body: contextBody }, async ({ params, body }) =>
  agentContext(db(), params.agent_id, body),
);
