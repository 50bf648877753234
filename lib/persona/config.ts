// Persona evolution settings from the environment.
import { DEFAULT_HISTORY_LIMIT } from "./pg-adapter";

/** Actions (reflect, approve, …) must be enabled explicitly; otherwise the page is inspection-only. */
export function personaActionsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PROCTOR_PERSONA_ACTIONS === "1";
}

/** PROCTOR_PERSONA_HISTORY_LIMIT (1–1000) for new profiles; default 50. */
export function personaHistoryLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PROCTOR_PERSONA_HISTORY_LIMIT);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : DEFAULT_HISTORY_LIMIT;
}
