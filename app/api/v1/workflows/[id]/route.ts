import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getWorkflow } from "@/lib/learning/workflows";

export const dynamic = "force-dynamic";

export const GET = route(v1.getWorkflow, async ({ params }) => getWorkflow(db(), params.id));
