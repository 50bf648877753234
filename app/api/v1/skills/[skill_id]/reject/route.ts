// POST /api/v1/skills/{skill_id}/reject: the review decision that refuses a shadow or candidate
// skill. A key bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { rejectSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.rejectSkill, async ({ params, body, audit }) => rejectSkill(db(), { skillId: params.skill_id, ...body }, audit));
