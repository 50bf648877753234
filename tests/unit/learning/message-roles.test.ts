import { describe, expect, it } from "vitest";
import { developerMessagesToSystem, mapForProvider, type ChatMessage } from "@/lib/learning/message-roles";

const messages = (): ChatMessage[] => [
  { role: "system", content: "policy" },
  { role: "user", content: "earlier" },
  { role: "assistant", content: "answer" },
  { role: "developer", content: "approved skill" },
  { role: "user", content: "now" },
];

describe("developer-role provider mapping", () => {
  it("merges developer into system for compatibility without mutating the input", () => {
    const input = messages();
    const snapshot = structuredClone(input);
    const out = developerMessagesToSystem(input);
    expect(input).toEqual(snapshot);
    expect(out).toEqual([
      { role: "system", content: "policy\n\napproved skill" },
      { role: "user", content: "earlier" },
      { role: "assistant", content: "answer" },
      { role: "user", content: "now" },
    ]);
    expect(out[0]).not.toBe(input[0]);
  });

  it("prepends a system message when there is none", () => {
    expect(developerMessagesToSystem([{ role: "developer", content: "a" }, { role: "developer", content: "b" }, { role: "user", content: "q" }])).toEqual([
      { role: "system", content: "a\n\nb" },
      { role: "user", content: "q" },
    ]);
  });

  it("keeps the native developer message for official OpenAI", () => {
    const input = messages();
    const out = mapForProvider("openai", input);
    expect(out.messages).toEqual(input);
    expect(out.messages.map((m) => m.role)).toContain("developer");
    expect(out.system).toBeUndefined();
  });

  it("maps developer to system for OpenAI-compatible endpoints", () => {
    const out = mapForProvider("openai-compatible", messages());
    expect(out.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(out.messages[0].content).toBe("policy\n\napproved skill");
  });

  it("maps system and developer to Anthropic's top-level system", () => {
    const input = messages();
    const out = mapForProvider("anthropic", input);
    expect(out.system).toBe("policy\n\napproved skill");
    expect(out.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(input).toHaveLength(5);
  });

  it("converts developer to system in place for Ollama", () => {
    const input = messages();
    const out = mapForProvider("ollama", input);
    expect(out.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "system", "user"]);
    expect(out.messages[3].content).toBe("approved skill");
    expect(input[3].role).toBe("developer");
  });
});
