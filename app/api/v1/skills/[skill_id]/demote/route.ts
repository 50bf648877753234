import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { demoteSkill } from "@/lib/learning/skills-api";

export const dynamic = "force-dynamic";

export const POST = route(v1.demoteSkill, async ({ params, body, audit }) =>
  demoteSkill(db(), params.skill_id, body.reason, audit),
);
