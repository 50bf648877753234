// POST /api/v1/experiments/{experiment_id}/cancel: stops a draft or running experiment, nothing to
// the ledger. A key bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { cancelExperiment } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.cancelExperiment, async ({ params, body, audit }) => cancelExperiment(db(), { experimentId: params.experiment_id, reason: body.reason }, audit));
