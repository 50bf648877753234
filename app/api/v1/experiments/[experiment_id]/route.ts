import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { requireExperimentInReach } from "@/lib/api/v1/reach";
import { db } from "@/lib/db/client";
import { getExperiment } from "@/lib/experiments/experiments";

export const dynamic = "force-dynamic";

// A key bound to agents reaches only their experiments.
export const GET = route(v1.getExperiment, async ({ params, actor }) => {
  await requireExperimentInReach(actor, params.experiment_id);
  return getExperiment(db(), params.experiment_id);
});
