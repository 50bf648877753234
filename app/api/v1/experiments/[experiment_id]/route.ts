// GET /api/v1/experiments/{experiment_id}: an experiment and its progress. A key bound to other
// agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getExperiment } from "@/lib/experiments/experiments";

export const dynamic = "force-dynamic";

export const GET = route(v1.getExperiment, async ({ params }) => getExperiment(db(), params.experiment_id));
