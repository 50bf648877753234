import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { demoteSkill } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.demoteSkill, async ({ params, body, audit }) => demoteSkill(db(), { skillId: params.skill_id, ...body }, audit));
