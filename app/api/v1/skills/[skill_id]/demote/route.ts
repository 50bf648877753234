import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { demoteSkill } from "@/lib/learning/operations";
import { requireSkillInReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

// A key bound to agents reaches only their skills.
export const POST = route(v1.demoteSkill, async ({ params, body, actor, audit }) => {
  await requireSkillInReach(actor, params.skill_id);
  return demoteSkill(db(), { skillId: params.skill_id, ...body }, audit);
});
