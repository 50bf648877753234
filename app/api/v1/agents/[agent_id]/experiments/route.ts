import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { createExperiment } from "@/lib/experiments/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.createExperiment, async ({ params, body, audit }) =>
  json(await createExperiment(db(), { agentId: params.agent_id, ...body }, audit), 201),
);
