// RFC 9457 problem+json errors. `code` values are part of the agent API's published contract
// (each operation's problem answers are listed in GET /api/v1/openapi.json): add codes, never rename one.
// Domain errors (lib/errors.ts) become problems here and nowhere else.
import { DomainError, type FieldError } from "../errors";

export type { FieldError };
export type ProblemCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "invalid_state"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable"
  /** The key's secret is right but the key is past its expiry. */
  | "key_expired"
  /** A reference names nothing stored: an evidence_ref's run or trace (README "API keys"). */
  | "unresolved_reference"
  /** The agent's deletion has started: every write about it is refused. */
  | "agent_deleting"
  | "method_not_allowed"
  | "unsupported_media_type"
  /** The request's head is over Node's limit (16 KiB): refused by its parser before any route runs. */
  | "headers_too_large";

const STATUS: Record<ProblemCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  key_expired: 401,
  unresolved_reference: 422,
  agent_deleting: 409,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  headers_too_large: 431,
};

const TITLE: Record<ProblemCode, string> = {
  validation_error: "Invalid request",
  unauthorized: "Authentication required",
  forbidden: "Forbidden",
  not_found: "Not found",
  conflict: "Conflict",
  invalid_state: "Invalid state",
  payload_too_large: "Payload too large",
  rate_limited: "Too many requests",
  unavailable: "Service unavailable",
  key_expired: "API key expired",
  unresolved_reference: "Unresolved reference",
  agent_deleting: "Agent being deleted",
  method_not_allowed: "Method not allowed",
  unsupported_media_type: "Unsupported media type",
  headers_too_large: "Request headers too large",
};

export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = STATUS[code];
  }
}

export const problems = {
  validation: (detail: string, errors?: FieldError[]) => new ProblemError("validation_error", detail, errors),
  unauthorized: (detail = "A valid session or API key is required.") => new ProblemError("unauthorized", detail),
  forbidden: (detail = "You are not allowed to do this.") => new ProblemError("forbidden", detail),
  notFound: (what: string) => new ProblemError("not_found", `${what} was not found.`),
  conflict: (detail: string) => new ProblemError("conflict", detail),
  invalidState: (detail: string) => new ProblemError("invalid_state", detail),
  tooLarge: (limit: number) => new ProblemError("payload_too_large", `The request body exceeds ${limit} bytes.`),
  rateLimited: (retryAfterSeconds: number) =>
    new ProblemError("rate_limited", "Too many requests; slow down.", undefined, { "Retry-After": String(retryAfterSeconds) }),
  unavailable: (detail = "The service is temporarily unavailable.") => new ProblemError("unavailable", detail),
  keyExpired: () => new ProblemError("key_expired", "The API key has expired; ask an admin for a new one."),
  notJson: () => new ProblemError("unsupported_media_type", "The request body must be sent as Content-Type: application/json."),
};

export function problemBody(code: ProblemCode, detail: string, requestId: string, errors?: FieldError[]) {
  return {
    type: `https://proctor.dev/problems/${code}`,
    title: TITLE[code],
    status: STATUS[code],
    detail,
    code,
    request_id: requestId,
    ...(errors?.length ? { errors } : {}),
  };
}

export function problemResponse(err: ProblemError, requestId: string): Response {
  return new Response(JSON.stringify(problemBody(err.code, err.detail, requestId, err.errors)), {
    status: err.status,
    headers: {
      "content-type": "application/problem+json",
      "x-request-id": requestId,
      "cache-control": "no-store",
      ...err.headers,
    },
  });
}

/** The one mapping of domain errors to problems: the kind is the problem code. */
export function problemFromDomain(err: DomainError): ProblemError {
  return new ProblemError(err.kind, err.message, err.fields);
}
