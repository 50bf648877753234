import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { skillParams } from "@/lib/api/v1/learning";
import { skillReadiness } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: skillParams }, async ({ params }) => skillReadiness(db(), params.skill_id));
