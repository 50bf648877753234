import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getAgent } from "@/lib/learning/agents/agent";
import { declareAgent, deleteAgent } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const GET = route(v1.getAgent, async ({ params }) => getAgent(db(), params.agent_id));

export const PUT = route(v1.putAgent, async ({ params, body, audit }) => declareAgent(db(), { agentId: params.agent_id, ...body }, audit));

/** 202 when this request started the deletion, 200 when it was already under way. */
export const DELETE = route(v1.deleteAgent, async ({ params, query, body, audit }) => {
  const { started, ...deletion } = await deleteAgent(db(), { agentId: params.agent_id, includeLedger: query.include_ledger, reason: body?.reason ?? null }, audit);
  return json(deletion, started ? 202 : 200);
});
