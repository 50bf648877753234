// Declarations of the OTLP trace export (lib/api/otlp.ts): its wire schemas as OpenAPI shows them.
import { z } from "zod";
import { rawBytes, type RawBodyOptions } from "../raw-body";
import { OTLP_JSON, OTLP_PROTOBUF } from "../otlp";
import { OTLP_DECODED_BYTES } from "../../otlp/limits";
import { BATCH_BODY_BYTES } from "./limits";

/** An export as sent (8 MiB, the batch limit); gzip-encoded ones may decode to OTLP_DECODED_BYTES (inflated in chunks, stopped there). */
export const OTLP_BODY_BYTES = BATCH_BODY_BYTES;

export const otlpRawBody: RawBodyOptions = {
  media: {
    [OTLP_PROTOBUF]: "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest as protobuf; Content-Encoding: gzip accepted",
    [OTLP_JSON]: "the same as OTLP JSON (hex ids, lowerCamelCase fields, 64-bit integers as strings); Content-Encoding: gzip accepted",
  },
  gzipDecodedLimit: OTLP_DECODED_BYTES,
};

export const otlpExportBody = rawBytes;

export const otlpExportResponse = z.object({
  partialSuccess: z
    .object({
      rejectedSpans: z.string().describe("int64 as text (protobuf JSON mapping)"),
      errorMessage: z.string().describe("why, counted per reason"),
    })
    .optional()
    .describe("present only when spans were refused"),
});

/** google.rpc.Status, the OTLP error body (protobuf or JSON like the request); details are never sent. */
export const otlpStatus = z.object({ code: z.number().int().describe("google.rpc.Code"), message: z.string() });

export const OTLP_DESCRIPTION = [
  "OTLP/HTTP trace export (an exporter's OTEL_EXPORTER_OTLP_ENDPOINT is <console>/api/v1/otlp; OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer <ingest key>).",
  "Spans are staged and a trace's runs are assembled by the worker once it has received no new span for PROCTOR_OTLP_SETTLE_MS (default 5000), then enter the same ingestion as POST /workflows/batch.",
  "Mapping: one run per span with gen_ai.operation.name=invoke_agent (in a trace without one, per root span with execute_tool descendants); workflow_id otel:<trace id>:<span id>, root_trace_id the trace id;",
  "agent gen_ai.agent.id, else gen_ai.agent.name, else resource service.name (declared on first sight, toolbox grown from gen_ai.tool.name/description and gen_ai.tool.definitions, unless PROCTOR_OTLP_AUTO_AGENTS=0);",
  "steps: execute_tool descendants in start order (gen_ai.tool.name, gen_ai.tool.call.arguments, gen_ai.tool.call.result; status ERROR → error {type: error.type or the exception event's exception.type});",
  "query: the first user message of the chat descendants' gen_ai.input.messages (or gen_ai.prompt / gen_ai.user.message events); user: user.id or enduser.id; thread: gen_ai.conversation.id; user and assistant messages become conversation messages;",
  "outcome: proctor.outcome, else the invocation's status (ERROR → failure, OK → success); proctor.skills_activated → skills_activated.",
  "Re-exported spans are duplicates; spans missing what their role needs, of agents the key is not bound to, and the spans of a trace none of whose spans (in this export or staged before) is in a convention Proctor reads are counted in partialSuccess.rejectedSpans, errorMessage counting them per reason. Errors are google.rpc.Status bodies, not problem+json.",
].join(" ");
