// An agent's learning-settings page: the agent with its resolved configuration, the defaults,
// and which distiller is in use; null when there is no such agent.
import "server-only";
import type { Db } from "../../db/prisma";
import { DEFAULT_LEARNING_CONFIG } from "../agents/config";
import { llmConfigFromEnv } from "../../llm/client";
import { getAgentDetail } from "../review/agent-list";

/** Where the model lives, without any credentials a URL might carry. */
function endpointLabel(baseURL: string | undefined): string {
  if (!baseURL) return "the OpenAI API";
  try {
    return new URL(baseURL).host;
  } catch {
    return "a configured endpoint";
  }
}

export async function loadAgentSettingsPage(db: Db, agentId: string) {
  const agent = await getAgentDetail(db, agentId);
  if (!agent) return null;
  const llm = llmConfigFromEnv();
  return { agent, defaults: DEFAULT_LEARNING_CONFIG, llm: llm ? { model: llm.model, endpoint: endpointLabel(llm.baseURL) } : null };
}
