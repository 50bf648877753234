// POST /api/v1/experiments/{experiment_id}/context: one arm's context for one case. A key bound to
// other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { serveArmContext } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.experimentContext, async ({ params, body }) => serveArmContext(db(), { experimentId: params.experiment_id, caseId: body.case_id, arm: body.arm, repetition: body.repetition }));
