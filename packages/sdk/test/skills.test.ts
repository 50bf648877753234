import { describe, expect, it } from "vitest";
import { contextRequest, skillsContext } from "../src/skills";
import { batchesOf } from "../src/runs";

describe("withSkills request", () => {
  it("takes the last user turn as the query, system and developer text as the system prompt, the rest as history", () => {
    const body = contextRequest({
      userId: "acct-1",
      provider: "anthropic",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: "Refunds need an order id." },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "Refund order A1" },
      ],
    });
    expect(body).toEqual({
      query: "Refund order A1",
      user_id: "acct-1",
      provider: "anthropic",
      system_prompt: "Be brief.\n\nRefunds need an order id.",
      history: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ],
    });
  });

  it("keeps a last user turn that is not the query in the history, and needs a query", () => {
    const body = contextRequest({ query: "Refund order B2", messages: [{ role: "user", content: "earlier" }] });
    expect(body).toMatchObject({ query: "Refund order B2", user_id: null, history: [{ role: "user", content: "earlier" }] });
    expect(body).not.toHaveProperty("provider");
    expect(() => contextRequest({ messages: [{ role: "assistant", content: "hello" }] })).toThrow(/needs a query/);
    expect(() => contextRequest({ query: "q", messages: [{ role: "tool", content: "{}" } as never] })).toThrow(/not "tool"/);
  });

  it("answers the console's messages as they came, with the skill ids to report", () => {
    const answer = {
      skills: [{ skill_id: "sk_1", name: "refund", version: 2, injection_role: "user", similarity: 0.9 }],
      messages: [{ role: "user", content: "<proctor:context>…" }],
      system_instruction: "Be brief.",
      kept_memory_ids: ["m2"],
      dropped_memory_ids: ["m1"],
    };
    expect(skillsContext(answer)).toEqual({
      messages: answer.messages,
      systemInstruction: "Be brief.",
      skills: answer.skills,
      skillsActivated: ["sk_1"],
      keptMemoryIds: ["m2"],
      droppedMemoryIds: ["m1"],
    });
  });
});

describe("run batches", () => {
  it("groups runs by agent in recording order, at most batchSize per request", () => {
    const run = (n: number) => ({ workflow_id: `w${n}`, query: "q", steps: [] });
    const pending = [1, 2, 3, 4, 5].map((n) => ({ agentId: n % 2 ? "a" : "b", run: run(n) }));
    expect(batchesOf(pending, 2).map((b) => [b.agentId, b.runs.map((r) => r.workflow_id)])).toEqual([
      ["a", ["w1", "w3"]],
      ["a", ["w5"]],
      ["b", ["w2", "w4"]],
    ]);
  });
});
