import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { requireExperimentInReach } from "@/lib/api/v1/reach";
import { db } from "@/lib/db/client";
import { experimentReport } from "@/lib/experiments/report";

export const dynamic = "force-dynamic";

export const GET = route(v1.getExperimentReport, async ({ params, actor }) => {
  await requireExperimentInReach(actor, params.experiment_id);
  return experimentReport(db(), params.experiment_id);
});
