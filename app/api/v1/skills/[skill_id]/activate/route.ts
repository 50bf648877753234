import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { activateSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// The body is optional: an empty POST activates with the stored authority.
export const POST = route(v1.activateSkill, async ({ params, body, audit }) => activateSkill(db(), { skillId: params.skill_id, ...body }, audit));
