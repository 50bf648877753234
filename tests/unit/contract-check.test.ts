// The integration tests' response check (tests/helpers/contract-check.ts) refuses what the
// contract does not declare: an undeclared status, a wrong type, an undeclared field.
import { describe, expect, it } from "vitest";
import { checkReply, operationFor } from "../helpers/contract-check";

const readiness = { ready: false, observations: 3, trajectory_match_rate: 1, matched_success_rate: 0.5, reasons: ["too few observations"] };
const problem = { type: "about:blank", title: "Not Found", status: 404, detail: "Skill 'x' was not found.", code: "not_found", request_id: "r1" };

describe("contract check", () => {
  it("finds the operation of a concrete path, literal segments first", () => {
    expect(operationFor("POST", "/api/v1/agents/a1/workflows/batch")?.path).toBe("/api/v1/agents/{agent_id}/workflows/batch");
    expect(operationFor("get", "/api/v1/ledger/procedures/p%2F1/evaluations/c1?tenant=t")?.path).toBe("/api/v1/ledger/procedures/{id}/evaluations/{case_id}");
    expect(operationFor("DELETE", "/api/v1/skills/s1")).toBeUndefined();
  });

  it("accepts a declared answer and a declared problem", () => {
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 200, readiness)).not.toThrow();
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 404, problem)).not.toThrow();
  });

  it("refuses an undeclared status, a wrong type and an undeclared field", () => {
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 201, readiness)).toThrow(/declares no such answer/);
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 200, { ...readiness, ready: "no" })).toThrow(/does not match/);
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 200, { ...readiness, secret: 1 })).toThrow(/\/secret/);
    expect(() => checkReply("GET", "/api/v1/skills/s1/readiness", 404, { ...problem, code: "gone" })).toThrow(/does not match/);
  });

  it("leaves undeclared routes alone", () => {
    expect(() => checkReply("GET", "/api/v1/nowhere", 404, null)).not.toThrow();
  });
});
