// POST /api/v1/skills/{skill_id}/qualification: proposes a shadow skill to the evidence ledger for
// paired evaluation. A key bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { startSkillQualification } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// 201 for a new procedure, 200 with the current record when this skill version already has one.
export const POST = route(v1.startSkillQualification, async ({ params, body, audit }) => {
  const { record, created } = await startSkillQualification(db(), { skillId: params.skill_id, ...body }, audit);
  return json(record, created ? 201 : 200);
});
