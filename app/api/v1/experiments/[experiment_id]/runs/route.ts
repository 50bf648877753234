// POST /api/v1/experiments/{experiment_id}/runs: the agent reports the run of one assignment. A key
// bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { reportExperimentRun } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

// 201 for a new report, 200 for an identical one again.
export const POST = route(v1.reportExperimentRun, async ({ params, body }) => {
  const result = await reportExperimentRun(db(), { experimentId: params.experiment_id, ...body });
  return json(result, result.duplicate ? 200 : 201);
});
