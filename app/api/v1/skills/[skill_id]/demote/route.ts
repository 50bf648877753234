// POST /api/v1/skills/{skill_id}/demote: takes an active skill out of context assembly. A key
// bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { demoteSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.demoteSkill, async ({ params, body, audit }) => demoteSkill(db(), { skillId: params.skill_id, ...body }, audit));
