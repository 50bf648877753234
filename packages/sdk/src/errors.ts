import type { components } from "./openapi.js";

/** The agent API's error body (application/problem+json), with its stable `code`. */
export type Problem = components["schemas"]["Problem"];

const isProblem = (body: unknown): body is Problem =>
  typeof body === "object" && body !== null && typeof (body as Problem).code === "string" && typeof (body as Problem).status === "number";

/**
 * A request the console refused (`status` and, when it answered problem+json, `problem`), or
 * one that got no answer after its retries (`status` null, the network error as `cause`).
 */
export class ProctorError extends Error {
  readonly status: number | null;
  readonly problem: Problem | null;

  constructor(status: number | null, body: unknown, cause?: unknown) {
    const problem = isProblem(body) ? body : null;
    const reason = cause instanceof Error ? `: ${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ""}` : "";
    const what = status === null ? `no answer from the console${reason}` : `HTTP ${status}${problem ? ` ${problem.code}: ${problem.detail}` : ""}`;
    super(`Proctor: ${what}`, cause === undefined ? undefined : { cause });
    this.name = "ProctorError";
    this.status = status;
    this.problem = problem;
  }

  /** The problem's `code` (e.g. `validation_error`, `rate_limited`), or null. */
  get code(): Problem["code"] | null {
    return this.problem?.code ?? null;
  }
}
