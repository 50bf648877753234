import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { demoteBody, skillParams } from "@/lib/api/v1/learning";
import { demoteSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "any", scope: "admin", params: skillParams, body: demoteBody }, async ({ params, body, audit }) =>
  demoteSkill(db(), { skillId: params.skill_id, ...body }, audit),
);
