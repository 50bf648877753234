// GET /api/v1/skills/{skill_id}/readiness: whether a shadow skill looks ready, and why not. A key
// bound to other agents gets 404: the declaration's reachByRecord, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { skillReadiness } from "@/lib/learning/skills/skill-reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.getSkillReadiness, async ({ params }) => skillReadiness(db(), params.skill_id));
