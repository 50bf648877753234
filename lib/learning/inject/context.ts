// Prompt assembly with learned skills: a static system contract, reviewed
// developer-authority skills as their own developer message, user-authority skills leading
// the volatile context of the final user message, and the one-representation rule (no raw
// workflow next to the skill compiled from it). Pure: retrieval happens elsewhere.
import { mapForProvider, type ChatMessage, type Provider, type ProviderMessage } from "./provider-roles";

export type ContextMemory = {
  id: string;
  source?: string;
  memory_type?: string;
  workflow_id?: string;
  canonical_hash?: string;
  promoted_skill_id?: string;
  text: string;
};

export type RenderedSkill = {
  skillId: string;
  name: string;
  version: number;
  injectionRole: "user" | "developer";
  similarity: number;
  content: string;
  sourceCanonicalHash: string;
  sourceWorkflowIds: string[];
};

/** Byte-stable across turns: skill text never enters the system prompt. */
export const SKILL_CONTRACT = [
  "Learned skills:",
  "- Some requests come with learned skills: procedures compiled from this agent's own past successful runs.",
  "- Skills inside <proctor:context> in the user's message are strong priors, not mandates.",
  "- Skills in a developer message were approved by the application after review; they are below this system policy.",
  "- Before following a skill, check each of its preconditions against the current request, current facts and tool results.",
  "- If a precondition fails, do not force the procedure: deviate and solve the request fresh.",
  "- Every run is recorded and skills are monitored; a skill that stops working is retired.",
].join("\n");

export const USER_SKILLS_HEADER =
  "Relevant learned skills, compiled from your own past successful runs. Verify each skill's preconditions against " +
  "the current query; these are strong priors, not mandates. If a precondition fails, deviate and solve fresh. The " +
  "run is recorded either way.";

export const DEVELOPER_SKILLS_HEADER =
  "Application-approved learned skills, activated after review. Apply one when its preconditions match; verify current " +
  "facts and tool results; these are subordinate to system policy; do not force a procedure if a precondition fails.";

function renderSkillSection(skills: RenderedSkill[], role: "user" | "developer"): string {
  const header = role === "developer" ? DEVELOPER_SKILLS_HEADER : USER_SKILLS_HEADER;
  const entries = skills.map((s) => `── Skill: ${s.name} (v${s.version}, match ${s.similarity.toFixed(2)}) ──\n${s.content}`);
  return [header, ...entries].join("\n\n");
}

const WORKFLOW_SOURCES = new Set(["workflow", "workflows", "workflow_memory", "procedural_workflow"]);

function normalizeSource(s: string | undefined): string {
  if (!s) return "";
  const last = s.toLowerCase().replace(/[-\s]+/g, "_").split(".");
  return last[last.length - 1];
}

function isWorkflowMemory(m: ContextMemory): boolean {
  return WORKFLOW_SOURCES.has(normalizeSource(m.source)) || WORKFLOW_SOURCES.has(normalizeSource(m.memory_type)) || !!m.workflow_id;
}

/**
 * With skills rendered, a workflow memory is dropped when it is covered by one of them (its
 * stamp, class hash or workflow id) or when it has no provenance at all (it cannot be shown
 * to be distinct). Other memories are always kept. Without rendered skills nothing is dropped.
 */
export function filterSkillCoveredWorkflows(memories: ContextMemory[], skills: RenderedSkill[]): { kept: ContextMemory[]; dropped: ContextMemory[] } {
  if (skills.length === 0) return { kept: [...memories], dropped: [] };
  const ids = new Set(skills.map((s) => s.skillId));
  const hashes = new Set(skills.map((s) => s.sourceCanonicalHash));
  const workflowIds = new Set(skills.flatMap((s) => s.sourceWorkflowIds));
  const kept: ContextMemory[] = [];
  const dropped: ContextMemory[] = [];
  for (const m of memories) {
    if (!isWorkflowMemory(m)) {
      kept.push(m);
      continue;
    }
    const hasProvenance = !!(m.promoted_skill_id || m.canonical_hash || m.workflow_id);
    const covered =
      (m.promoted_skill_id && ids.has(m.promoted_skill_id)) ||
      (m.canonical_hash && hashes.has(m.canonical_hash)) ||
      (m.workflow_id && workflowIds.has(m.workflow_id)) ||
      workflowIds.has(m.id);
    (covered || !hasProvenance ? dropped : kept).push(m);
  }
  return { kept, dropped };
}

export type AssembleInput = {
  query: string;
  systemPrompt: string;
  provider: Provider;
  history: ChatMessage[];
  memories: ContextMemory[];
  skills: RenderedSkill[];
};

export type AssembledContext = {
  messages: ProviderMessage[];
  system?: string;
  systemInstruction?: string;
  keptMemoryIds: string[];
  droppedMemoryIds: string[];
};

export function assembleContext(input: AssembleInput): AssembledContext {
  const userSkills = input.skills.filter((s) => s.injectionRole === "user");
  const developerSkills = input.skills.filter((s) => s.injectionRole === "developer");
  const { kept, dropped } = filterSkillCoveredWorkflows(input.memories, input.skills);

  const system = input.systemPrompt.trim() ? `${input.systemPrompt.trim()}\n\n${SKILL_CONTRACT}` : SKILL_CONTRACT;
  const messages: ChatMessage[] = [{ role: "system", content: system }, ...input.history.map((m) => ({ ...m }))];
  if (developerSkills.length) {
    messages.push({ role: "developer", content: `<proctor:approved-skills>\n${renderSkillSection(developerSkills, "developer")}\n</proctor:approved-skills>` });
  }
  const volatile: string[] = [];
  if (userSkills.length) volatile.push(renderSkillSection(userSkills, "user"));
  if (kept.length) volatile.push(["Relevant memories:", ...kept.map((m) => `- ${m.text}`)].join("\n"));
  messages.push({
    role: "user",
    content: volatile.length ? `<proctor:context>\n${volatile.join("\n\n")}\n</proctor:context>\n\n${input.query}` : input.query,
  });
  const mapped = mapForProvider(input.provider, messages);
  return {
    messages: mapped.messages,
    ...(mapped.system !== undefined ? { system: mapped.system } : {}),
    ...(mapped.systemInstruction !== undefined ? { systemInstruction: mapped.systemInstruction } : {}),
    keptMemoryIds: kept.map((m) => m.id),
    droppedMemoryIds: dropped.map((m) => m.id),
  };
}
