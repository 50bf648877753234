import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { workflowParams } from "@/lib/api/v1/schemas";
import { getWorkflow } from "@/lib/learning/workflows";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: workflowParams }, async ({ params }) => getWorkflow(db(), params.id));
