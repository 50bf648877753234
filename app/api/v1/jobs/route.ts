// GET /api/v1/jobs?status=dead: dead jobs of every kind, newest failure first (lib/jobs).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { listDeadJobs } from "@/lib/jobs/dead";

export const dynamic = "force-dynamic";

export const GET = route(v1.listJobs, async ({ query }) => ({ jobs: await listDeadJobs(db(), { kind: query.kind, agent: query.agent_id, limit: query.limit }) }));
