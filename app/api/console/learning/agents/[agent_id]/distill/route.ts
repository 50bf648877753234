// Console "Distill now" (admins): one class through the promotion cycle's gates and validation.
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { distillBody, distillClass } from "@/lib/learning/operations";
import { withSkillNames } from "@/lib/learning/review/reports";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: agentIdParams, body: distillBody }, async ({ params, body, audit }) =>
  withSkillNames(db(), await distillClass(db(), { agentId: params.agent_id, canonicalHash: body.canonical_hash, userId: body.user_id }, audit)),
);
