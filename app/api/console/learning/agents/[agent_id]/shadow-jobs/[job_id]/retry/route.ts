// Console "Retry" of a dead shadow evaluation job (admins; audited).
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { deadJobParams, retryShadowJob } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", params: deadJobParams, body: z.object({}).strict() }, async ({ params, audit }) =>
  retryShadowJob(db(), { agentId: params.agent_id, jobId: params.job_id }, audit),
);
