// Ledger input rules: byte lengths, Rust-style blank check, numbers, unstorable text.
import { describe, expect, it } from "vitest";
import { isLedgerError } from "@/lib/ledger/errors";
import { evaluationSchema, parseLedger, policySchema, proposalSchema, scopeSchema } from "@/lib/ledger/schemas";
import { compareBytes, isBlank, ledgerTextProblem } from "@/lib/ledger/text";

const policy = { evaluator_id: "e", evaluation_contract: "c" };
const proposal = { id: "p", task: "t", baseline_revision: "b", instructions: "i", source_refs: ["s"], policy };
const evaluation = {
  case_id: "c",
  phase: "qualification",
  evaluator_id: "e",
  evaluation_contract: "c",
  evidence_ref: "r",
  baseline_utility: 0,
  candidate_utility: 1,
  candidate_cost_units: 0,
  candidate_latency_ms: 0,
};
const ok = (schema: Parameters<typeof parseLedger>[0], v: unknown) => schema.safeParse(v).success;

describe("ledger text", () => {
  it("trims like Rust: U+FEFF alone is content, U+0085 alone is blank", () => {
    expect(isBlank("\uFEFF")).toBe(false);
    expect(isBlank("\u0085")).toBe(true);
    expect(isBlank(" \t\n\u3000\u2028")).toBe(true);
    expect(isBlank(" a ")).toBe(false);
  });

  it("counts UTF-8 bytes of the untrimmed value", () => {
    expect(ledgerTextProblem("é".repeat(256), 512)).toBeNull();
    expect(ledgerTextProblem("é".repeat(256) + "a", 512)).toMatch(/512 UTF-8 bytes/);
    expect(ledgerTextProblem(" ".repeat(511) + "a", 512)).toBeNull();
    expect(ledgerTextProblem(" ".repeat(512) + "a", 512)).not.toBeNull();
  });

  it("refuses NUL and lone surrogates", () => {
    expect(ledgerTextProblem("a\u0000b", 512)).toMatch(/NUL/);
    expect(ledgerTextProblem("a\uD800b", 512)).toMatch(/surrogate/);
    expect(ledgerTextProblem("😀", 512)).toBeNull();
  });

  it("orders by UTF-8 bytes, not UTF-16 units", () => {
    // U+FF61 is one UTF-16 unit above the surrogates; U+1F600 is a surrogate pair. Bytes: EF… < F0….
    expect("\uFF61" < "😀").toBe(false);
    expect(compareBytes("\uFF61", "😀")).toBeLessThan(0);
    expect(compareBytes("a", "b")).toBeLessThan(0);
  });
});

describe("ledger schemas", () => {
  it("fills the reference's policy defaults but requires evaluator and contract", () => {
    expect(policySchema.parse(policy)).toEqual({
      qualification_trials: 128,
      confidence_delta: 0.01,
      min_improvement: 0.05,
      min_candidate_utility: 0.7,
      max_cost_units: 10_000,
      max_latency_ms: 60_000,
      max_failure_streak: 3,
      ...policy,
    });
    expect(ok(policySchema, { evaluator_id: "e" })).toBe(false);
    expect(ok(policySchema, { ...policy, evaluator_id: "  " })).toBe(false);
  });

  it("rejects bad deltas, trials and streaks", () => {
    for (const d of [0, 0.5, NaN, Infinity, -1]) expect(ok(policySchema, { ...policy, confidence_delta: d })).toBe(false);
    for (const n of [0, 1, 1_000_001, 2.5]) expect(ok(policySchema, { ...policy, qualification_trials: n })).toBe(false);
    for (const n of [2, 1_000_000]) expect(ok(policySchema, { ...policy, qualification_trials: n })).toBe(true);
    for (const k of [0, 1_000_001]) expect(ok(policySchema, { ...policy, max_failure_streak: k })).toBe(false);
    expect(ok(policySchema, { ...policy, max_cost_units: 0, max_latency_ms: 0 })).toBe(true);
  });

  it("rejects counters and limits that are negative, fractional, beyond 2^53−1 or strings", () => {
    for (const v of [-1, 0.5, 2 ** 53, Infinity, NaN, "5"]) {
      expect(ok(evaluationSchema, { ...evaluation, candidate_cost_units: v })).toBe(false);
      expect(ok(policySchema, { ...policy, max_latency_ms: v })).toBe(false);
    }
    expect(ok(evaluationSchema, { ...evaluation, candidate_latency_ms: 2 ** 53 - 1 })).toBe(true);
  });

  it("accepts utilities in [0, 1] including −0 and rejects anything else", () => {
    for (const u of [0, -0, 1, 0.5]) expect(ok(evaluationSchema, { ...evaluation, candidate_utility: u })).toBe(true);
    for (const u of [-0.01, 1.01, NaN, Infinity, -Infinity, "1"]) expect(ok(evaluationSchema, { ...evaluation, candidate_utility: u })).toBe(false);
  });

  it("checks the limits at the boundary and one byte over", () => {
    const at = (n: number) => "x".repeat(n);
    expect(ok(proposalSchema, { ...proposal, id: at(512) })).toBe(true);
    expect(ok(proposalSchema, { ...proposal, id: at(513) })).toBe(false);
    expect(ok(proposalSchema, { ...proposal, source_refs: [at(2048)] })).toBe(true);
    expect(ok(proposalSchema, { ...proposal, source_refs: [at(2049)] })).toBe(false);
    expect(ok(proposalSchema, { ...proposal, instructions: at(65_536) })).toBe(true);
    expect(ok(proposalSchema, { ...proposal, instructions: at(65_537) })).toBe(false);
    expect(ok(proposalSchema, { ...proposal, source_refs: Array(128).fill("s") })).toBe(true);
    expect(ok(proposalSchema, { ...proposal, source_refs: Array(129).fill("s") })).toBe(false);
    expect(ok(proposalSchema, { ...proposal, source_refs: [] })).toBe(false);
    expect(ok(evaluationSchema, { ...evaluation, evidence_ref: at(2048) })).toBe(true);
    expect(ok(evaluationSchema, { ...evaluation, evidence_ref: at(2049) })).toBe(false);
    expect(ok(scopeSchema, { tenant: at(512), agent: "a", environment: "e" })).toBe(true);
    expect(ok(scopeSchema, { tenant: at(513), agent: "a", environment: "e" })).toBe(false);
  });

  it("turns failures into ValidationError with field paths", () => {
    try {
      parseLedger(scopeSchema, { tenant: "", agent: "a", environment: "e\u0000" }, "scope", "/scope");
      expect.unreachable();
    } catch (e) {
      expect(isLedgerError(e, "ValidationError")).toBe(true);
      expect((e as { fields: { path: string }[] }).fields.map((x) => x.path)).toEqual(["/scope/tenant", "/scope/environment"]);
    }
  });
});
