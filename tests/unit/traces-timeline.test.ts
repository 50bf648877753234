import { describe, expect, it } from "vitest";
import { mergeTimeline, stepsOf, type TimelineEvent } from "@/lib/traces/timeline";

const at = (s: string) => new Date(`2026-01-01T00:00:${s}Z`);
const message = (id: string, t: string): TimelineEvent => ({ kind: "message", id, at: at(t), rootTraceId: null, agentId: "a", messageId: id, role: "user", text: "" });
const review = (id: string, t: string): TimelineEvent => ({
  kind: "review", id, at: at(t), rootTraceId: id, status: "proposed", trigger: "manual", failure: null, evidenceCount: 1, selectedCount: 1,
  model: null, inputTokens: null, outputTokens: null, durationMs: null, estimatedCostUsd: null,
});
const run = (id: string, t: string): TimelineEvent => ({
  kind: "run", id, at: at(t), rootTraceId: null, agentId: "a", userId: null, workflowId: id, canonicalHash: null, query: "", outcome: "SUCCESS", outcomeSource: "REPORTED",
  executionError: null, answer: null, steps: [], skills: [],
});

describe("trace timeline", () => {
  it("orders by time, then messages before runs before reviews, then by id", () => {
    const merged = mergeTimeline([review("r1", "05"), run("w1", "05"), message("m2", "05"), message("m1", "05"), message("m0", "09"), run("w0", "01")]);
    expect(merged.map((e) => e.id)).toEqual(["w0", "m1", "m2", "w1", "r1", "m0"]);
  });

  it("reads stored tool steps defensively", () => {
    expect(stepsOf([{ tool: "lookup", arguments: { id: 1 }, result: { ok: true }, timestamp: "2026-01-01T00:00:00Z" }, { error: { type: "Timeout" } }, null])).toEqual([
      { tool: "lookup", arguments: { id: 1 }, result: { ok: true }, error: null, timestamp: "2026-01-01T00:00:00Z", durationMs: null, untilNextMs: null },
      { tool: "(unknown tool)", arguments: null, result: null, error: { type: "Timeout" }, timestamp: null, durationMs: null, untilNextMs: null },
      { tool: "(unknown tool)", arguments: null, result: null, error: null, timestamp: null, durationMs: null, untilNextMs: null },
    ]);
    expect(stepsOf("nope")).toEqual([]);
  });

  it("takes a step's own duration when sent, else the time until the next timestamped step", () => {
    const steps = stepsOf([
      { tool: "a", timestamp: "2026-01-01T00:00:00.000Z" },
      { tool: "b", timestamp: "2026-01-01T00:00:01.250Z", duration_ms: 800 },
      { tool: "c", timestamp: "2026-01-01T00:00:02.000Z", duration_ms: "fast" },
    ]);
    expect(steps.map((s) => [s.durationMs, s.untilNextMs])).toEqual([
      [null, 1250],
      [800, 750],
      [null, null],
    ]);
  });
});
