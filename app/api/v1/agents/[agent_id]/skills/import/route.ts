import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { skillUpload } from "@/lib/api/v1/skill-upload";
import { db } from "@/lib/db/client";
import { importSkills } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.importSkills, async ({ body, params, audit }) =>
  importSkills(db(), { agentId: params.agent_id, ...(await skillUpload(body)) }, audit),
);
