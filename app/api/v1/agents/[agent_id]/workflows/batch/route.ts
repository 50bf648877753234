import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams, workflowBatchBody } from "@/lib/api/v1/schemas";
import { BATCH_BODY_BYTES, INGEST_RATE_PER_KEY } from "@/lib/api/v1/limits";
import { recordWorkflowBatch } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(
  { auth: "any", scope: "ingest", params: agentParams, body: workflowBatchBody, maxBodyBytes: BATCH_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY },
  async ({ params, body }) => json({ results: await recordWorkflowBatch(db(), params.agent_id, body.workflows) }, 207),
);
