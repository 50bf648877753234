// GET /api/v1/workflows/{id}: one stored run by the id its creation returned. A key bound to other
// agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getWorkflow } from "@/lib/learning/capture/workflow-reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.getWorkflow, async ({ params }) => getWorkflow(db(), params.id));
