// POST /api/v1/otlp/v1/traces: OTLP/HTTP trace exports, whose agent spans become runs. Spans that
// cannot be staged (unusable, of agents a bound key does not reach, of traces in no convention
// Proctor reads) are rejected one by one (partial success, counted per reason), not the export.
import { route } from "@/lib/api/handler";
import { OTLP_JSON, otlpExportResponse, withOtlpErrors } from "@/lib/api/otlp";
import { v1 } from "@/lib/api/v1/contract";
import { stagingThread } from "@/lib/otlp/staging-thread";

export const dynamic = "force-dynamic";

// OTLP/HTTP (exporters append /v1/traces to <console>/api/v1/otlp). Decoded and staged on the
// staging thread, assembled by the worker.
export const POST = withOtlpErrors(
  route(v1.exportOtlpTraces, async ({ body, actor }) => {
    const staged = await stagingThread.stage({ json: body.type === OTLP_JSON, gzip: body.gzip, bytes: body.bytes }, actor);
    return otlpExportResponse(body.type, staged.rejected, staged.errorMessage);
  }),
);
