// withSkills: the agent's conversation in, the console's assembled prompt out (POST
// /agents/{agent_id}/context). The console picks the ACTIVE skills this account may receive (the
// agent-wide ones, plus its own under learning_scope "user"), places them and maps roles for the
// provider (developer role, top-level system, Gemini's systemInstruction): nothing of that is
// re-implemented here.
import type { ContextRequest, ContextResponse, Memory, Provider } from "./types.js";

export type ChatMessage = { role: "system" | "developer" | "user" | "assistant"; content: string };

export type SkillsRequest = {
  /** The user's new request; defaults to the last message when that is the user's. */
  query?: string;
  /**
   * The account asking (the runs' `user_id`). Every account, and a request without one, gets the
   * agent's agent-wide skills: those learned from many accounts' runs (learning_scope "agent", the
   * default for new agents), from runs without an account, or imported. Under learning_scope
   * "user" an account also gets the skills learned from its own runs, and never another account's.
   */
  userId?: string | null;
  /** How the answer's messages are shaped (default "openai"). */
  provider?: Provider;
  /** The conversation so far: system and developer messages become the system prompt, user and assistant turns the history. */
  messages?: ChatMessage[];
  memories?: Memory[];
};

export type SkillsContext = {
  /** The messages to send to the model, in the provider's roles. */
  messages: ContextResponse["messages"];
  /** Anthropic: the top-level system prompt. */
  system?: string;
  /** Gemini: the text of systemInstruction. */
  systemInstruction?: string;
  skills: ContextResponse["skills"];
  /** The injected skills' ids: report them as the run's `skills_activated`. */
  skillsActivated: string[];
  keptMemoryIds: string[];
  droppedMemoryIds: string[];
};

export function contextRequest(request: SkillsRequest): ContextRequest {
  const messages = [...(request.messages ?? [])];
  const last = messages.at(-1);
  let query = request.query;
  if (last?.role === "user" && (query === undefined || query === last.content)) {
    messages.pop();
    query = last.content;
  }
  if (!query) throw new TypeError("withSkills needs a query: pass `query` or end `messages` with the user's turn");
  const system: string[] = [];
  const history: NonNullable<ContextRequest["history"]> = [];
  for (const m of messages) {
    if (m.role === "system" || m.role === "developer") system.push(m.content);
    else if (m.role === "user" || m.role === "assistant") history.push({ role: m.role, content: m.content });
    else throw new TypeError(`withSkills takes system, developer, user and assistant messages, not "${(m as { role: string }).role}"`);
  }
  return {
    query,
    user_id: request.userId ?? null,
    ...(request.provider ? { provider: request.provider } : {}),
    system_prompt: system.join("\n\n"),
    history,
    ...(request.memories ? { memories: request.memories } : {}),
  };
}

export function skillsContext(answer: ContextResponse): SkillsContext {
  return {
    messages: answer.messages,
    ...(answer.system !== undefined ? { system: answer.system } : {}),
    ...(answer.system_instruction !== undefined ? { systemInstruction: answer.system_instruction } : {}),
    skills: answer.skills,
    skillsActivated: answer.skills.map((s) => s.skill_id),
    keptMemoryIds: answer.kept_memory_ids,
    droppedMemoryIds: answer.dropped_memory_ids,
  };
}
