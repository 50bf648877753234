// The LLM reflector with the real openai client against a loopback chat-completions server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llmReflector, REFLECTION_FAILURES, type PersonaLlmOptions } from "@/lib/persona/llm-reflector";
import type { EvidenceMessage } from "@/lib/persona/reflector";
import { proposalReply, startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai-persona";

let fake: FakeOpenAI;
let options: PersonaLlmOptions;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  options = { baseURL: fake.baseUrl, apiKey: "test", model: "reflector-model", timeoutMs: 500, maxOutputTokens: 321, inputUsdPerMTok: 2, outputUsdPerMTok: 10 };
});
afterAll(async () => {
  await fake?.close();
});

const messages: EvidenceMessage[] = [
  { ref: "m1", id: "msg-1", threadId: "t1", agentId: "a1", timestamp: new Date("2026-01-01T00:00:00Z"), text: "Please use concrete examples." },
  { ref: "m2", id: "msg-2", threadId: "t2", agentId: "a1", timestamp: new Date("2026-01-02T00:00:00Z"), text: "Examples first, definitions later." },
];

describe("LLM reflector", () => {
  it("asks with bounded output and returns a validated proposal with usage and estimated cost", async () => {
    fake.queue(proposalReply("Start with a practical example.", ["m2"]));
    const before = fake.requests.length;
    const out = await llmReflector(options).reflect({ goals: "Learn effectively.", messages });
    expect(out).toMatchObject({ kind: "change", goals: "Start with a practical example.", evidenceRefs: ["m2"] });
    expect(out.usage).toMatchObject({ model: "reflector-model", inputTokens: 420, outputTokens: 64 });
    expect(out.usage.estimatedCostUsd).toBeCloseTo((420 * 2 + 64 * 10) / 1e6, 12);
    const req = fake.requests[before];
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.body.model).toBe("reflector-model");
    expect(req.body.max_completion_tokens).toBe(321);
    const prompt = JSON.parse(req.body.messages[1].content);
    expect(prompt.current_goals).toBe("Learn effectively.");
    expect(prompt.messages.map((m: { id: string }) => m.id)).toEqual(["m1", "m2"]);
    // Raw message ids never reach the model; only the short handles do.
    expect(req.body.messages[1].content).not.toContain("msg-1");
  });

  it("records malformed JSON as a failed reflection", async () => {
    fake.queue({ content: "I think the user wants examples." });
    expect(await llmReflector(options).reflect({ goals: "", messages })).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.json });
  });

  it("gives up after its time bound", async () => {
    fake.queue({ delayMs: 3000, content: "{}" });
    const out = await llmReflector(options).reflect({ goals: "", messages });
    expect(out).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.timeout });
  });

  it("records a provider error without its text", async () => {
    fake.queue({ status: 500 });
    const out = await llmReflector(options).reflect({ goals: "", messages });
    expect(out).toMatchObject({ kind: "failed", failure: REFLECTION_FAILURES.provider });
  });
});
