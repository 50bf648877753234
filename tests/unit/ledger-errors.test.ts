import { afterEach, describe, expect, it, vi } from "vitest";
import { ledgerRefusesToStart } from "@/lib/ledger/errors";
import { problemFromDomain, problemResponse } from "@/lib/api/problem";

afterEach(() => vi.restoreAllMocks());

// The ledger's refusal to run on an unknown schema (ledger-core.test.ts provokes it on a real
// database) reaches agents as 503 problem+json with the code `unavailable`, not the stored version.
describe("the ledger's schema refusal over HTTP", () => {
  it("is a 503 problem with code unavailable and a fixed message", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const problem = problemFromDomain(ledgerRefusesToStart("stored version 999, this build knows 1"));
    const response = problemResponse(problem, "req-1");
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json();
    expect(body).toMatchObject({ status: 503, code: "unavailable" });
    expect(JSON.stringify(body)).not.toContain("999");
  });
});
