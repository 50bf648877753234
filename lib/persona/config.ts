// Persona evolution settings from the environment. The history limit is read when a profile is
// created (it is stored on the profile, so changing it later leaves existing profiles alone).

const DEFAULT_HISTORY_LIMIT = 50;

/** PROCTOR_PERSONA_HISTORY_LIMIT (1–1000) for new profiles; default 50. */
export function personaHistoryLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PROCTOR_PERSONA_HISTORY_LIMIT);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : DEFAULT_HISTORY_LIMIT;
}
