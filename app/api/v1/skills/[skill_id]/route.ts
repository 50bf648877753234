// GET /api/v1/skills/{skill_id}: one skill with its stats and advisory readiness. A key bound to
// other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getSkill } from "@/lib/learning/skills/skill-reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.getSkill, async ({ params }) => getSkill(db(), params.skill_id));
