import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getWorkflow } from "@/lib/learning/capture/workflow-reads";
import { inReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

// A key bound to agents reads only their runs.
export const GET = route(v1.getWorkflow, async ({ params, actor }) => inReach(actor, await getWorkflow(db(), params.id), `Workflow '${params.id}'`));
