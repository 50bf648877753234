// Provider mapping of the developer role (reference §2.15). The caller's messages are never
// mutated: every mapping works on copies.
export type ChatRole = "system" | "developer" | "user" | "assistant";
export type ChatMessage = { role: ChatRole; content: string };
export type Provider = "openai" | "openai-compatible" | "anthropic" | "ollama";

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

/** Anthropic: system and developer contents, in order, become the top-level `system`. */
export function toAnthropic(messages: readonly ChatMessage[]): { system: string; messages: ChatMessage[] } {
  const out = copy(messages);
  const system = out.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content);
  return { system: system.join("\n\n"), messages: out.filter((m) => m.role !== "system" && m.role !== "developer") };
}

/** Ollama: each developer message becomes a system message in place. */
export function toOllama(messages: readonly ChatMessage[]): ChatMessage[] {
  return copy(messages).map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
}

export function mapForProvider(provider: Provider, messages: readonly ChatMessage[]): { messages: ChatMessage[]; system?: string } {
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
  }
}
