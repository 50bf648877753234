// POST /api/v1/otlp/v1/traces: OTLP/HTTP trace exports, whose agent spans become runs. Spans that
// cannot be staged (unusable, of agents a bound key does not reach, of traces in no convention
// Proctor reads) are rejected one by one (partial success, counted per reason), not the export.
import { route } from "@/lib/api/handler";
import { OTLP_JSON, otlpExportResponse, withOtlpErrors } from "@/lib/api/otlp";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { decodeJson, decodeProtobuf } from "@/lib/otlp/decode";
import { stageSpans } from "@/lib/otlp/operations";

export const dynamic = "force-dynamic";

// OTLP/HTTP (exporters append /v1/traces to <console>/api/v1/otlp). Staged here, assembled by the worker.
export const POST = withOtlpErrors(
  route(v1.exportOtlpTraces, async ({ body, reaches, actor }) => {
    const decoded = body.type === OTLP_JSON ? decodeJson(body.bytes) : decodeProtobuf(body.bytes);
    const apiKeyId = actor?.type === "api_key" ? actor.id : null;
    const staged = await stageSpans(db(), { spans: decoded.spans, decoded, reaches, apiKeyId });
    return otlpExportResponse(body.type, staged.rejected, staged.errorMessage);
  }),
);
