import { z } from "zod";
import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { problems } from "@/lib/api/problem";
import { ingestWorkflows } from "@/lib/learning/ingest";
import { searchWorkflows } from "@/lib/learning/workflows";

export const dynamic = "force-dynamic";

// The body is validated (once) by ingestWorkflows, against the same schema as batch items.
export const POST = route(
  { ...v1.ingestWorkflow, body: z.unknown() },
  async ({ params, body }) => {
    const [r] = await ingestWorkflows(db(), params.agent_id, [body]);
    if (r.status === 400) throw problems.validation(r.error!.detail, r.error!.errors);
    if (r.status === 409) throw problems.conflict(r.error!.detail);
    const { index: _index, status, ...created } = r;
    return json(created, status);
  },
);

export const GET = route(v1.searchWorkflows, async ({ params, query }) => ({
  workflows: await searchWorkflows(db(), params.agent_id, {
    query: query.query,
    userId: query.user_id,
    limit: query.limit,
    excludePromoted: query.exclude_promoted,
  }),
}));
