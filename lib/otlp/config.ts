// OTLP ingestion settings from the environment (README "OpenTelemetry ingestion").
export const ASSEMBLY_JOB = "otlp_assembly";

/**
 * Assembly jobs (one per trace) the worker hands over at once, the batch API's largest batch:
 * their traces share one ingestion per agent, one observation of the agent and one conversation
 * statement, whose costs are per call (at 200 per claim they were a fifth of a run's assembly).
 */
export const ASSEMBLY_BATCH = 500;

/** How long a trace must receive no new span before its runs are assembled (PROCTOR_OTLP_SETTLE_MS, default 5,000). */
export function settleMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.PROCTOR_OTLP_SETTLE_MS;
  return v && /^\d{1,9}$/.test(v) ? Number(v) : 5000;
}

/** Unknown agents are declared on first sight and toolboxes grow from what runs use (PROCTOR_OTLP_AUTO_AGENTS, default on). */
export const autoAgents = (env: NodeJS.ProcessEnv = process.env) => !["0", "false", "off", "no"].includes((env.PROCTOR_OTLP_AUTO_AGENTS ?? "").toLowerCase());

/**
 * Whose toolboxes grow from the tools their runs use (PROCTOR_OTLP_GROW_TOOLBOXES): "own" (the
 * default) only agents the ingestion declared itself and no admin declared since; "all" every
 * agent's, admin-declared ones included; "off" none. Never past MAX_AUTO_TOOLS_PER_AGENT.
 */
export function growToolboxes(env: NodeJS.ProcessEnv = process.env): "own" | "all" | "off" {
  const v = (env.PROCTOR_OTLP_GROW_TOOLBOXES ?? "").toLowerCase();
  return v === "all" ? "all" : ["off", "0", "false", "no"].includes(v) ? "off" : "own";
}

/** Staged spans of a trace that received nothing new for this long are deleted (assembled or not). */
export const STAGED_SPAN_TTL_MS = 24 * 60 * 60 * 1000;
