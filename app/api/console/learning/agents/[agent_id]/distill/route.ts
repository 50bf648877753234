// Console "Distill now" (admins): one class through the promotion cycle's gates and validation.
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentIdParams } from "@/lib/api/v1/learning";
import { distillBody, distillClass } from "@/lib/learning/review/actions";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: agentIdParams, body: distillBody }, async ({ params, body, audit }) =>
  distillClass(db(), params.agent_id, body, audit),
);
