import { describe, expect, it } from "vitest";
import { assembleContext, filterSkillCoveredWorkflows, SKILL_CONTRACT, type ContextMemory, type RenderedSkill } from "@/lib/learning/inject/context";

const skill = (over: Partial<RenderedSkill> = {}): RenderedSkill => ({
  skillId: "sk1",
  name: "refund-order",
  version: 2,
  injectionRole: "user",
  similarity: 0.91,
  content: "---\nname: refund-order\n---\n# refund-order\nSKILL BODY TEXT",
  sourceCanonicalHash: "h-refund",
  sourceWorkflowIds: ["run-1", "run-2"],
  ...over,
});

const memories: ContextMemory[] = [
  { id: "m-stamp", source: "workflow", promoted_skill_id: "sk1", text: "stamped run" },
  { id: "m-hash", source: "Workflow-Memory", canonical_hash: "h-refund", text: "same class" },
  { id: "m-src", source: "workflows", workflow_id: "run-2", text: "source run" },
  { id: "m-bare", source: "workflow", text: "no provenance" },
  { id: "m-wfid-only", workflow_id: "run-9", canonical_hash: "h-other", text: "other class" },
  { id: "m-kb", source: "knowledge_base", text: "return policy: 30 days" },
  { id: "m-conv", source: "memorizz.conversation_memory", text: "likes email" },
];

describe("one representation per prompt", () => {
  it("drops covered and provenance-less workflows, keeps unrelated workflows and other memories", () => {
    const { kept, dropped } = filterSkillCoveredWorkflows(memories, [skill()]);
    expect(dropped.map((m) => m.id)).toEqual(["m-stamp", "m-hash", "m-src", "m-bare"]);
    expect(kept.map((m) => m.id)).toEqual(["m-wfid-only", "m-kb", "m-conv"]);
  });
  it("does nothing without rendered skills", () => {
    const { kept, dropped } = filterSkillCoveredWorkflows(memories, []);
    expect(kept).toHaveLength(memories.length);
    expect(dropped).toEqual([]);
  });
});

describe("prompt assembly", () => {
  const base = { query: "Refund order Z9", systemPrompt: "You are a support agent.", history: [], memories };

  it("keeps skill text out of the static system prompt, which is byte-stable", () => {
    const a = assembleContext({ ...base, provider: "openai", skills: [skill()] });
    const b = assembleContext({ ...base, provider: "openai", skills: [] });
    expect(a.messages[0]).toEqual({ role: "system", content: `You are a support agent.\n\n${SKILL_CONTRACT}` });
    expect(a.messages[0]).toEqual(b.messages[0]);
    expect(a.messages[0].content).not.toContain("SKILL BODY TEXT");
  });

  it("puts user-authority skills at the top of the final user message's volatile context", () => {
    const a = assembleContext({ ...base, provider: "openai", skills: [skill()] });
    const last = a.messages[a.messages.length - 1];
    expect(last.role).toBe("user");
    expect(last.content.startsWith("<proctor:context>\nRelevant learned skills")).toBe(true);
    expect(last.content).toContain("── Skill: refund-order (v2, match 0.91) ──\n---\nname: refund-order");
    expect(last.content.indexOf("SKILL BODY TEXT")).toBeLessThan(last.content.indexOf("return policy"));
    expect(last.content.endsWith("</proctor:context>\n\nRefund order Z9")).toBe(true);
    expect(last.content).not.toContain("stamped run");
    expect(a.messages.some((m) => m.role === "developer")).toBe(false);
    expect(a.keptMemoryIds).toEqual(["m-wfid-only", "m-kb", "m-conv"]);
    expect(a.droppedMemoryIds).toEqual(["m-stamp", "m-hash", "m-src", "m-bare"]);
  });

  it("emits developer-authority skills as a separate developer message before the user turn", () => {
    const a = assembleContext({ ...base, provider: "openai", history: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], skills: [skill({ injectionRole: "developer" })] });
    expect(a.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "developer", "user"]);
    expect(a.messages[3].content).toMatch(/^<proctor:approved-skills>\nApplication-approved learned skills/);
    expect(a.messages[4].content).not.toContain("SKILL BODY TEXT");
  });

  it("maps the developer message per provider", () => {
    const dev = [skill({ injectionRole: "developer" })];
    const compat = assembleContext({ ...base, provider: "openai-compatible", skills: dev });
    expect(compat.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(compat.messages[0].content).toContain("SKILL BODY TEXT");
    const anthropic = assembleContext({ ...base, provider: "anthropic", skills: dev });
    expect(anthropic.messages.map((m) => m.role)).toEqual(["user"]);
    expect(anthropic.system).toContain("SKILL BODY TEXT");
    expect(anthropic.system!.startsWith("You are a support agent.")).toBe(true);
    const ollama = assembleContext({ ...base, provider: "ollama", skills: dev });
    expect(ollama.messages.map((m) => m.role)).toEqual(["system", "system", "user"]);
    const gemini = assembleContext({ ...base, provider: "gemini", history: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], skills: dev });
    expect(gemini.messages.map((m) => m.role)).toEqual(["user", "model", "user"]);
    expect(gemini.systemInstruction!.startsWith("You are a support agent.")).toBe(true);
    expect(gemini.systemInstruction).toContain("SKILL BODY TEXT");
    expect(gemini.system).toBeUndefined();
    for (const provider of ["huggingface", "mlx"] as const) {
      const local = assembleContext({ ...base, provider, history: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], skills: dev });
      expect(local.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      expect(local.messages[0].content.startsWith("You are a support agent.")).toBe(true);
      expect(local.messages[0].content).toContain("SKILL BODY TEXT");
    }
  });

  it("sends just the query when there is nothing volatile", () => {
    const a = assembleContext({ ...base, memories: [], provider: "openai", skills: [] });
    expect(a.messages[a.messages.length - 1]).toEqual({ role: "user", content: "Refund order Z9" });
  });

  it("never mutates the caller's history or memories", () => {
    const history = [{ role: "user" as const, content: "hi" }];
    const mem = structuredClone(memories);
    assembleContext({ ...base, memories: mem, history, provider: "anthropic", skills: [skill({ injectionRole: "developer" })] });
    expect(history).toEqual([{ role: "user", content: "hi" }]);
    expect(mem).toEqual(memories);
  });
});
