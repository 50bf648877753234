import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams, workflowInput, workflowSearchQuery } from "@/lib/api/v1/schemas";
import { INGEST_RATE_PER_KEY, SINGLE_BODY_BYTES } from "@/lib/api/v1/limits";
import { recordWorkflowRun } from "@/lib/learning/operations";
import { searchWorkflows } from "@/lib/learning/workflows";

export const dynamic = "force-dynamic";

// The same schema and error description as a batch item.
export const POST = route(
  {
    auth: "any",
    scope: "ingest",
    params: agentParams,
    body: workflowInput,
    bodyErrors: { name: "workflow" },
    maxBodyBytes: SINGLE_BODY_BYTES,
    rateLimit: INGEST_RATE_PER_KEY,
  },
  async ({ params, body }) => {
    const { status, run } = await recordWorkflowRun(db(), params.agent_id, body);
    return json(run, status);
  },
);

export const GET = route({ auth: "any", params: agentParams, query: workflowSearchQuery }, async ({ params, query }) => ({
  workflows: await searchWorkflows(db(), params.agent_id, {
    query: query.query,
    userId: query.user_id,
    limit: query.limit,
    excludePromoted: query.exclude_promoted,
  }),
}));
