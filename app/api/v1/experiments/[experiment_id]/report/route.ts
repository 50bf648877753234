// GET /api/v1/experiments/{experiment_id}/report: the report, recomputed from the stored runs. A key
// bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { experimentReport } from "@/lib/experiments/report";

export const dynamic = "force-dynamic";

export const GET = route(v1.getExperimentReport, async ({ params }) => experimentReport(db(), params.experiment_id));
