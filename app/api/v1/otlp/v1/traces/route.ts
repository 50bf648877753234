// POST /api/v1/otlp/v1/traces: OTLP/HTTP trace exports, whose agent spans become runs. Spans that
// cannot be staged (unusable, of agents a bound key does not reach, of traces in no convention
// Proctor reads) are rejected one by one (partial success, counted per reason), not the export.
import { route } from "@/lib/api/handler";
import { OTLP_JSON, otlpExportResponse, withOtlpErrors } from "@/lib/api/otlp";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { stageOtlpExport } from "@/lib/otlp/operations";

export const dynamic = "force-dynamic";

// OTLP/HTTP (exporters append /v1/traces to <console>/api/v1/otlp). Staged here (large exports on
// the staging thread), assembled by the worker.
export const POST = withOtlpErrors(
  route(v1.exportOtlpTraces, async ({ body, actor }) => {
    const staged = await stageOtlpExport(db(), { json: body.type === OTLP_JSON, bytes: body.bytes, actor });
    return otlpExportResponse(body.type, staged.rejected, staged.errorMessage);
  }),
);
