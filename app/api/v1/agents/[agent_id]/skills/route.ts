import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams, skillListQuery } from "@/lib/api/v1/learning";
import { listSkills } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: agentIdParams, query: skillListQuery }, async ({ params, query }) =>
  listSkills(db(), params.agent_id, query),
);
