import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getAgent } from "@/lib/learning/agents";
import { declareAgent } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const GET = route(v1.getAgent, async ({ params }) => getAgent(db(), params.agent_id));

export const PUT = route(v1.putAgent, async ({ params, body, audit }) => declareAgent(db(), { agentId: params.agent_id, ...body }, audit));
