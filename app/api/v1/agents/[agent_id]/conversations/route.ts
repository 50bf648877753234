import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { ingestConversation } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.ingestConversation, async ({ params, body }) =>
  json(await ingestConversation(db(), params.agent_id, body), 201),
);
