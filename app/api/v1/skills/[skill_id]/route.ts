import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getSkill } from "@/lib/learning/skills/skill-reads";
import { requireSkillInReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

// A key bound to agents reaches only their skills.
export const GET = route(v1.getSkill, async ({ params, actor }) => {
  await requireSkillInReach(actor, params.skill_id);
  return getSkill(db(), params.skill_id);
});
