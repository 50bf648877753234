import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { ingestWorkflow } from "@/lib/learning/operations";
import { searchWorkflows } from "@/lib/learning/capture/workflow-reads";

export const dynamic = "force-dynamic";

// The same schema and error description as a batch item.
export const POST = route(v1.ingestWorkflow, async ({ params, body }) => {
  const { status, run } = await ingestWorkflow(db(), params.agent_id, body);
  return json(run, status);
});

export const GET = route(v1.searchWorkflows, async ({ params, query }) => ({
  workflows: await searchWorkflows(db(), params.agent_id, {
    query: query.query,
    userId: query.user_id,
    limit: query.limit,
    excludePromoted: query.exclude_promoted,
  }),
}));
