import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { listSkills } from "@/lib/learning/skills/skill-reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.listSkills, async ({ params, query }) =>
  listSkills(db(), params.agent_id, query),
);
