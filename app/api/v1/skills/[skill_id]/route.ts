import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getSkill } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const GET = route(v1.getSkill, async ({ params }) => getSkill(db(), params.skill_id));
