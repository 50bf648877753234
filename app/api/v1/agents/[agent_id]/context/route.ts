import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { agentContext } from "@/lib/learning/skills/skill-reads";

export const dynamic = "force-dynamic";

export const POST = route(v1.assembleContext, async ({ params, body }) =>
  agentContext(db(), params.agent_id, body),
);
