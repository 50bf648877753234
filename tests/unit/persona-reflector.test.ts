// Reflection without a model: the deterministic reflector's explicit-goal statements, the
// parsing of a model's answer (which fails closed), and the goals diff the page shows.
import { describe, expect, it } from "vitest";
import { deterministicReflector, explicitGoals, mergeGoals, MAX_GOAL_LINES, type EvidenceMessage } from "@/lib/persona/reflector";
import { interpretAnswer, REFLECTION_FAILURES } from "@/lib/persona/llm-reflector";
import { diffLines } from "@/lib/persona/diff";

const msg = (ref: string, text: string): EvidenceMessage => ({ ref, id: `id-${ref}`, threadId: "t1", agentId: "a1", timestamp: new Date("2026-01-01T00:00:00Z"), text });
const usage = { model: "m", inputTokens: 1, outputTokens: 1, durationMs: 1, estimatedCostUsd: null };

describe("deterministic reflector", () => {
  it("finds explicitly stated goals", () => {
    expect(explicitGoals("Hi! My goal is to pass the B2 Spanish exam. Thanks")).toEqual(["Pass the B2 Spanish exam"]);
    expect(explicitGoals("I want to learn regular expressions, and I'd like to write a parser.")).toEqual([
      "Learn regular expressions",
      "Write a parser",
    ]);
    expect(explicitGoals("I'm trying to cook more at home")).toEqual(["Cook more at home"]);
    expect(explicitGoals("What is the capital of France?")).toEqual([]);
  });

  it("merges new goals without duplicates and keeps the newest lines", () => {
    expect(mergeGoals("Learn Go", ["learn go!", "Write tests"])).toBe("Learn Go\nWrite tests");
    const many = Array.from({ length: MAX_GOAL_LINES + 3 }, (_, i) => `Goal ${i}`);
    const merged = mergeGoals("", many).split("\n");
    expect(merged).toHaveLength(MAX_GOAL_LINES);
    expect(merged.at(-1)).toBe(`Goal ${MAX_GOAL_LINES + 2}`);
  });

  it("proposes a change citing only the messages that added a goal, or no change", async () => {
    const r = deterministicReflector();
    const change = await r.reflect({
      goals: "Learn Go",
      messages: [msg("m1", "My goal is to learn Go"), msg("m2", "Thanks!"), msg("m3", "I want to write fuzz tests.")],
    });
    expect(change).toMatchObject({ kind: "change", goals: "Learn Go\nWrite fuzz tests", evidenceRefs: ["m3"] });
    expect(change.usage.model).toBe("deterministic");
    const none = await r.reflect({ goals: "Learn Go", messages: [msg("m1", "my goal is to learn go"), msg("m2", "ok")] });
    expect(none.kind).toBe("no_change");
  });
});

describe("interpreting the model's answer", () => {
  const input = { goals: "Old goals", messages: [msg("m1", "a"), msg("m2", "b")] };

  it("accepts a JSON proposal (also inside a ```json fence) and keeps only supplied evidence ids", () => {
    const text = '```json\n{"change": true, "goals": "New goals", "reason": "Because.", "evidence_ids": ["m2", "m9", "m2"]}\n```';
    expect(interpretAnswer(text, input, usage)).toMatchObject({ kind: "change", goals: "New goals", reason: "Because.", evidenceRefs: ["m2"] });
  });

  it("treats no change, or unchanged goals, as no change", () => {
    expect(interpretAnswer('{"change": false, "reason": "Nothing durable."}', input, usage)).toMatchObject({ kind: "no_change", reason: "Nothing durable." });
    expect(interpretAnswer('{"change": true, "goals": " Old goals ", "reason": "Same.", "evidence_ids": ["m1"]}', input, usage).kind).toBe("no_change");
  });

  it("fails closed on malformed JSON, a wrong shape, or a change without supplied evidence", () => {
    expect(interpretAnswer("Sure! Here are the goals: …", input, usage)).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.json });
    expect(interpretAnswer('{"change": "yes", "reason": "x"}', input, usage)).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.shape });
    expect(interpretAnswer('{"change": true, "goals": "x", "reason": ""}', input, usage)).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.shape });
    expect(interpretAnswer('{"change": true, "goals": "New", "reason": "r", "evidence_ids": ["m7"]}', input, usage)).toMatchObject({
      kind: "failed",
      failure: REFLECTION_FAILURES.evidence,
    });
  });
});

describe("goals diff", () => {
  it("marks removed and added lines around common ones", () => {
    expect(diffLines("a\nb\nc", "a\nc\nd")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "same", text: "c" },
      { kind: "added", text: "d" },
    ]);
    expect(diffLines("", "x")).toEqual([{ kind: "added", text: "x" }]);
    expect(diffLines("x", "")).toEqual([{ kind: "removed", text: "x" }]);
  });
});
