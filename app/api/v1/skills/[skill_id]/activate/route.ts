import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { activateSkill } from "@/lib/learning/operations";
import { requireSkillInReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

// The body is optional: an empty POST activates with the stored authority. A key bound to agents reaches only their skills.
export const POST = route(v1.activateSkill, async ({ params, body, actor, audit }) => {
  await requireSkillInReach(actor, params.skill_id);
  return activateSkill(db(), { skillId: params.skill_id, ...body }, audit);
});
