import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { activateBody, optionalBody, skillParams } from "@/lib/api/v1/learning";
import { activateSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// The body is optional: an empty POST activates with the stored authority.
export const POST = route({ auth: "any", scope: "admin", params: skillParams }, async ({ req, params, audit }) =>
  activateSkill(db(), { skillId: params.skill_id, ...(await optionalBody(req, activateBody)) }, audit),
);
