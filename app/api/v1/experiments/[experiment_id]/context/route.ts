import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { requireExperimentInReach } from "@/lib/api/v1/reach";
import { db } from "@/lib/db/client";
import { serveArmContext } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.experimentContext, async ({ params, body, actor }) => {
  await requireExperimentInReach(actor, params.experiment_id);
  return serveArmContext(db(), { experimentId: params.experiment_id, caseId: body.case_id, arm: body.arm, repetition: body.repetition });
});
