import { route } from "@/lib/api/handler";
import { streamedResponse } from "@/lib/api/stream";
import { NDJSON, v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { exportWorkflows } from "@/lib/learning/capture/workflow-export";

export const dynamic = "force-dynamic";

export const GET = route(v1.exportWorkflows, async ({ params, query }) =>
  streamedResponse(await exportWorkflows(db(), params.agent_id, query), NDJSON, `${params.agent_id}-workflows.jsonl`),
);
