// The OTLP/HTTP edge of trace ingestion (POST /api/v1/otlp/v1/traces): answers in the encoding
// the request used (protobuf or JSON), ExportTraceServiceResponse on success and, for every
// refusal, the google.rpc.Status body the OTLP spec requires instead of problem+json (the
// request gate uses the same for what it refuses before the route: 401, 413).
import { ExportTraceServiceResponse, RpcStatus } from "../otlp/wire";
import { mediaType } from "./raw-body";
import type { ProblemCode } from "./problem";

export const OTLP_TRACES_PATH = "/api/v1/otlp/v1/traces";
export const OTLP_PROTOBUF = "application/x-protobuf";
export const OTLP_JSON = "application/json";

/** The gRPC status code for each problem (google.rpc.Code), as OTLP's Status carries it. */
const RPC_CODE: Partial<Record<ProblemCode, number>> = {
  validation_error: 3, // INVALID_ARGUMENT
  payload_too_large: 3,
  unsupported_media_type: 3,
  headers_too_large: 3,
  not_found: 5, // NOT_FOUND
  forbidden: 7, // PERMISSION_DENIED
  rate_limited: 8, // RESOURCE_EXHAUSTED
  unavailable: 14, // UNAVAILABLE
  unauthorized: 16, // UNAUTHENTICATED
  key_expired: 16,
};

const isJson = (contentType: string | null | undefined) => mediaType(contentType ?? null) === OTLP_JSON;

/** A Status body for `code`/`message`, encoded like the request (protobuf unless it sent JSON). */
export function otlpStatusBody(requestType: string | null | undefined, code: ProblemCode, message: string): { type: string; body: Uint8Array | string } {
  const status = { code: RPC_CODE[code] ?? 2, message };
  if (isJson(requestType)) return { type: OTLP_JSON, body: JSON.stringify(status) };
  return { type: OTLP_PROTOBUF, body: RpcStatus.encode(RpcStatus.create(status)).finish() };
}

/** ExportTraceServiceResponse: partialSuccess only when spans were refused (rejectedSpans and why). */
export function otlpExportResponse(requestType: string, rejected: number, errorMessage: string): Response {
  const value = rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {};
  const headers = { "cache-control": "no-store" };
  if (isJson(requestType)) return Response.json(value, { headers });
  const body = ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(value)).finish();
  return new Response(Buffer.from(body), { headers: { ...headers, "content-type": OTLP_PROTOBUF } });
}

/** Wraps a route handler: its problem+json answers become Status bodies, status and headers kept. */
export function withOtlpErrors<C>(handler: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    const res = await handler(req, ctx);
    if (!(res.headers.get("content-type") ?? "").startsWith("application/problem+json")) return res;
    const problem = (await res.json()) as { code: ProblemCode; detail: string };
    const { type, body } = otlpStatusBody(req.headers.get("content-type"), problem.code, problem.detail);
    const headers = new Headers(res.headers);
    headers.set("content-type", type);
    headers.delete("content-length");
    return new Response(typeof body === "string" ? body : Buffer.from(body), { status: res.status, headers });
  };
}
