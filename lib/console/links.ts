// Console addresses of records, one builder per record type: pages, tables, the audit log and
// the timeline link through these rather than writing hrefs of their own. Browser-safe.
// Ids are arbitrary text, so they are always encoded (path segments or query values).

/** The query parameter that scopes a page to one agent, everywhere (the switcher writes it). */
export const AGENT_PARAM = "agent";
/** Older spellings still read as the agent scope (traces links written before, and persona evidence links' `agent_id`). */
export const AGENT_PARAM_ALIASES = ["agent_id"] as const;

const enc = encodeURIComponent;
const query = (path: string, params: Record<string, string | null | undefined>, hash = "") => {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  return `${path}${q.size ? `?${q}` : ""}${hash}`;
};

export const agentHref = (agentId: string) => `/agents/${enc(agentId)}`;
export const agentSettingsHref = (agentId: string) => `/agents/${enc(agentId)}/settings`;

export const runHref = (runId: string) => `/workflows/runs/${enc(runId)}`;

/** A trajectory class, opened in the workflows page's class panel (per account when the class is). */
export function classHref(agentId: string, hash: string, userId: string | null) {
  return query("/workflows", { agent: agentId, class: hash, class_agent: agentId, class_user: userId });
}

export const skillHref = (agentId: string, skillId: string) => query("/skills", { agent: agentId, skill: skillId });

/** One conversation thread's timeline on the traces page, focused on a root trace when given. */
export function threadHref(t: { agentId?: string | null; userId?: string | null; threadId: string; rootTraceId?: string | null }, agentParam: string = AGENT_PARAM) {
  return query("/traces", { [agentParam]: t.agentId, user_id: t.userId, thread_id: t.threadId, root_trace_id: t.rootTraceId }, "#trace-timeline");
}

/** The threads of one account (optionally one agent's). */
export const accountTracesHref = (userId: string, agentId?: string | null) => query("/traces", { [AGENT_PARAM]: agentId, user_id: userId });

/** The account's persona page. */
export const personaHref = (userId: string) => query("/persona-evolution", { user_id: userId });

/** The audit log filtered to one account, searched by its plain id (the page computes the pseudonym). */
export const accountAuditHref = (userId: string) => query("/audit", { account: userId });

/** Settings rows carry `id="user-…"` / `id="api-key-…"`, so a link lands on the row. */
export const userHref = (userId: string) => `/settings/users#user-${enc(userId)}`;
export const apiKeyHref = (keyId: string) => `/settings/api-keys#api-key-${enc(keyId)}`;
export const webhooksHref = () => "/settings/webhooks";
export const experimentHref = (experimentId: string) => `/experiments/${enc(experimentId)}`;
export const userRowId = (userId: string) => `user-${userId}`;
export const apiKeyRowId = (keyId: string) => `api-key-${keyId}`;

/** The trajectory classes (workflows page) and skills lists, scoped to an agent when given. */
export const workflowsHref = (agentId?: string | null) => query("/workflows", { [AGENT_PARAM]: agentId });
export const skillsHref = (agentId?: string | null) => query("/skills", { [AGENT_PARAM]: agentId });
