import { z } from "zod";
import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { problems } from "@/lib/api/problem";
import { agentParams, workflowSearchQuery } from "@/lib/api/v1/schemas";
import { INGEST_RATE_PER_KEY, SINGLE_BODY_BYTES } from "@/lib/api/v1/limits";
import { ingestWorkflows } from "@/lib/learning/ingest";
import { searchWorkflows } from "@/lib/learning/workflows";

export const dynamic = "force-dynamic";

// The body is validated (once) by ingestWorkflows, against the same schema as batch items.
export const POST = route(
  { auth: "any", scope: "ingest", params: agentParams, body: z.unknown(), maxBodyBytes: SINGLE_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY },
  async ({ params, body }) => {
    const [r] = await ingestWorkflows(db(), params.agent_id, [body]);
    if (r.status === 400) throw problems.validation(r.error!.detail, r.error!.errors);
    if (r.status === 409) throw problems.conflict(r.error!.detail);
    const { index: _index, status, ...created } = r;
    return json(created, status);
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
