import { describe, expect, it } from "vitest";
import { contextBody } from "@/lib/learning/capture/schemas";
import { developerMessagesToSystem, mapForProvider, PROVIDERS, type ChatMessage } from "@/lib/learning/inject/provider-roles";
import { openApiDocument } from "@/lib/api/v1/openapi";

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

  it("puts system and developer contents into Gemini's systemInstruction, and assistant turns under the role model", () => {
    const input = messages();
    const out = mapForProvider("gemini", input);
    expect(out.systemInstruction).toBe("policy\n\napproved skill");
    expect(out.system).toBeUndefined();
    expect(out.messages).toEqual([
      { role: "user", content: "earlier" },
      { role: "model", content: "answer" },
      { role: "user", content: "now" },
    ]);
    expect(input).toEqual(messages());
  });

  it.each(["huggingface", "mlx"] as const)("merges developer into the chat template's leading system message for %s", (provider) => {
    const input = messages();
    const out = mapForProvider(provider, input);
    expect(out.messages).toEqual([
      { role: "system", content: "policy\n\napproved skill" },
      { role: "user", content: "earlier" },
      { role: "assistant", content: "answer" },
      { role: "user", content: "now" },
    ]);
    expect(out.system).toBeUndefined();
    expect(out.systemInstruction).toBeUndefined();
    expect(input[3].role).toBe("developer");
    // Without a system message, the developer text becomes the first (and only) one.
    expect(mapForProvider(provider, [{ role: "developer", content: "d" }, { role: "user", content: "q" }]).messages.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("leaves no developer role for any provider but official OpenAI", () => {
    for (const provider of PROVIDERS) {
      const roles = mapForProvider(provider, messages()).messages.map((m) => m.role);
      expect(roles.includes("developer"), provider).toBe(provider === "openai");
    }
  });

  it("accepts every provider in the context body and documents them in the OpenAPI enum", () => {
    for (const provider of PROVIDERS) expect(contextBody.parse({ query: "q", provider }).provider).toBe(provider);
    expect(contextBody.safeParse({ query: "q", provider: "cohere" }).success).toBe(false);
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { enum?: string[] }> } }> }; responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }>>;
    };
    const op = doc.paths["/api/v1/agents/{agent_id}/context"].post;
    expect(op.requestBody.content["application/json"].schema.properties.provider.enum).toEqual([...PROVIDERS]);
    expect(Object.keys(op.responses["200"].content["application/json"].schema.properties)).toContain("system_instruction");
  });
});
