// POST /api/v1/skills/{skill_id}/activate: the review decision that activates a shadow or candidate
// skill. A key bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { activateSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// The body is optional: an empty POST activates with the stored authority.
export const POST = route(v1.activateSkill, async ({ params, body, audit }) => activateSkill(db(), { skillId: params.skill_id, ...body }, audit));
