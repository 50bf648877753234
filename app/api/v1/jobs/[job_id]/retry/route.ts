// POST /api/v1/jobs/{job_id}/retry: a dead job queued again with fresh attempts (lib/jobs).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { retryDeadJobs } from "@/lib/jobs/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.retryJob, async ({ params, body, audit }) => retryDeadJobs(db(), { select: { job_id: params.job_id }, reason: body.reason }, audit));
