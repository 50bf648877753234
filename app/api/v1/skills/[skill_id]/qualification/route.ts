import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { startSkillQualification } from "@/lib/learning/operations";
import { requireSkillInReach } from "@/lib/api/v1/reach";

export const dynamic = "force-dynamic";

// 201 for a new procedure, 200 with the current record when this skill version already has one.
// A key bound to agents reaches only their skills.
export const POST = route(v1.startSkillQualification, async ({ params, body, actor, audit }) => {
  await requireSkillInReach(actor, params.skill_id);
  const { record, created } = await startSkillQualification(db(), { skillId: params.skill_id, ...body }, audit);
  return json(record, created ? 201 : 200);
});
