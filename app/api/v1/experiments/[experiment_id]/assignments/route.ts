// GET /api/v1/experiments/{experiment_id}/assignments: the runs the agent has still to report. A
// key bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { nextAssignments } from "@/lib/experiments/assignments";

export const dynamic = "force-dynamic";

export const GET = route(v1.listExperimentAssignments, async ({ params, query }) => nextAssignments(db(), params.experiment_id, query.limit));
