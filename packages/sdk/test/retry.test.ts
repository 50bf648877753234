import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelay } from "../src/retry";

const options = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 5_000 };

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP dates; ignores what it cannot read", () => {
    const now = Date.parse("2026-12-01T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Tue, 01 Dec 2026 10:00:07 GMT", now)).toBe(7_000);
    expect(parseRetryAfter("Tue, 01 Dec 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-1", now)).toBeNull();
  });

  it("wins over the backoff, up to the longest wait", () => {
    expect(retryDelay(0, "2", options)).toBe(2_000);
    expect(retryDelay(4, "0", options)).toBe(0);
    expect(retryDelay(0, "3600", options)).toBe(5_000);
  });
});

describe("backoff", () => {
  it("doubles per retry between half and all of the step, capped", () => {
    expect(retryDelay(0, null, options, () => 0)).toBe(50);
    expect(retryDelay(0, null, options, () => 1)).toBe(100);
    expect(retryDelay(3, null, options, () => 0)).toBe(400);
    expect(retryDelay(3, null, options, () => 1)).toBe(800);
    expect(retryDelay(20, null, options, () => 1)).toBe(5_000);
  });
});
