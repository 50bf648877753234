import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { skillReadiness } from "@/lib/learning/skills/skill-reads";
import { requireSkillInReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

export const GET = route(v1.getSkillReadiness, async ({ params, actor }) => {
  await requireSkillInReach(actor, params.skill_id);
  return skillReadiness(db(), params.skill_id);
});
