import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { requireExperimentInReach } from "@/lib/api/v1/reach";
import { db } from "@/lib/db/client";
import { cancelExperiment } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.cancelExperiment, async ({ params, body, actor, audit }) => {
  await requireExperimentInReach(actor, params.experiment_id);
  return cancelExperiment(db(), { experimentId: params.experiment_id, reason: body.reason }, audit);
});
