import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { ingestWorkflows } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.ingestWorkflowBatch, async ({ params, body }) =>
  json({ results: await ingestWorkflows(db(), params.agent_id, body.workflows) }, 207),
);
