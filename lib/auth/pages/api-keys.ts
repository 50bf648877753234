// Settings → API keys: the agents a new key can be bound to (the keys list itself is read by
// the panel from /api/console/api-keys, so it refreshes after each change).
import "server-only";
import type { Db } from "../../db/prisma";
import { agentOptions } from "../../learning/review/agent-list";

export type BindableAgent = { id: string; name: string };

export async function loadApiKeysPage(db: Db): Promise<{ agents: BindableAgent[] }> {
  return { agents: await agentOptions(db) };
}
