import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { requireExperimentInReach } from "@/lib/api/v1/reach";
import { db } from "@/lib/db/client";
import { nextAssignments } from "@/lib/experiments/assignments";

export const dynamic = "force-dynamic";

export const GET = route(v1.listExperimentAssignments, async ({ params, query, actor }) => {
  await requireExperimentInReach(actor, params.experiment_id);
  return nextAssignments(db(), params.experiment_id, query.limit);
});
