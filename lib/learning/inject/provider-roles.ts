// Provider mapping of the developer role: OpenAI's API has it natively; every other provider
// gets developer contents as system instructions, in its own form (below). The caller's
// messages are never mutated: every mapping works on copies.
export type ChatRole = "system" | "developer" | "user" | "assistant";
export type ChatMessage = { role: ChatRole; content: string };
/** Gemini names the assistant's turns "model". */
export type ProviderMessage = { role: ChatRole | "model"; content: string };
export const PROVIDERS = ["openai", "openai-compatible", "anthropic", "ollama", "gemini", "huggingface", "mlx"] as const;
export type Provider = (typeof PROVIDERS)[number];
export type ProviderMessages = { messages: ProviderMessage[]; system?: string; systemInstruction?: string };

const copy = (messages: readonly ChatMessage[]): ChatMessage[] => messages.map((m) => ({ ...m }));

/** Compatible endpoints: developer contents appended to the first system message (or a new one first). */
export function developerMessagesToSystem(messages: readonly ChatMessage[]): ChatMessage[] {
  const out = copy(messages);
  const developer = out.filter((m) => m.role === "developer").map((m) => m.content);
  if (developer.length === 0) return out;
  const rest = out.filter((m) => m.role !== "developer");
  const text = developer.join("\n\n");
  const system = rest.find((m) => m.role === "system");
  if (system) system.content = `${system.content}\n\n${text}`;
  else rest.unshift({ role: "system", content: text });
  return rest;
}

/** System and developer contents, in order, as one text; the other messages as they were. */
function splitInstructions(messages: readonly ChatMessage[]): { instructions: string; rest: ChatMessage[] } {
  const out = copy(messages);
  const instructions = out.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content);
  return { instructions: instructions.join("\n\n"), rest: out.filter((m) => m.role !== "system" && m.role !== "developer") };
}

/** Anthropic: system and developer contents, in order, become the top-level `system`. */
function toAnthropic(messages: readonly ChatMessage[]): { system: string; messages: ChatMessage[] } {
  const { instructions, rest } = splitInstructions(messages);
  return { system: instructions, messages: rest };
}

/**
 * Gemini: system and developer contents, in order, become the text of `systemInstruction`
 * (the API has no system or developer turn); assistant turns take Gemini's role "model".
 */
function toGemini(messages: readonly ChatMessage[]): { systemInstruction: string; messages: ProviderMessage[] } {
  const { instructions, rest } = splitInstructions(messages);
  return { systemInstruction: instructions, messages: rest.map((m) => (m.role === "assistant" ? { ...m, role: "model" } : m)) };
}

/** Ollama: each developer message becomes a system message in place. */
function toOllama(messages: readonly ChatMessage[]): ChatMessage[] {
  return copy(messages).map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
}

export function mapForProvider(provider: Provider, messages: readonly ChatMessage[]): ProviderMessages {
  switch (provider) {
    case "openai":
      // The official API has a native developer role.
      return { messages: copy(messages) };
    case "openai-compatible":
      return { messages: developerMessagesToSystem(messages) };
    case "anthropic":
      return toAnthropic(messages);
    case "ollama":
      return { messages: toOllama(messages) };
    case "gemini":
      return toGemini(messages);
    case "huggingface":
    case "mlx":
      // Chat templates have one system slot, at the start (several refuse a system turn
      // anywhere else): developer contents join it, as the reference's template path does.
      return { messages: developerMessagesToSystem(messages) };
  }
}
