// Console: start paired-evaluation qualification of a shadow skill (admins). 201 with the new
// ledger procedure; 200 with the existing one when this skill version already has it.
import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { skillParams } from "@/lib/api/v1/learning";
import { qualificationBody, startSkillQualification } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: skillParams, body: qualificationBody }, async ({ params, body, audit }) => {
  const { record, created } = await startSkillQualification(db(), { skillId: params.skill_id, ...body }, audit);
  return json(record, created ? 201 : 200);
});
