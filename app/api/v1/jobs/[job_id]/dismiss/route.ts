// POST /api/v1/jobs/{job_id}/dismiss: a dead job deleted for good, with a reason (lib/jobs).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { dismissDeadJobs } from "@/lib/jobs/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.dismissJob, async ({ params, body, audit }) => dismissDeadJobs(db(), { select: { job_id: params.job_id }, reason: body.reason }, audit));
