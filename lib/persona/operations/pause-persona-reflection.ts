// Pause (or, with `paused: false`, resume) reflection for an account. Pausing cancels a
// reflection in flight; its result is discarded.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { audited } from "./audited";

export type PausePersonaReflectionInput = { userId: string; revision: number; paused: boolean };

export function pausePersonaReflection(database: Db, input: PausePersonaReflectionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, paused } = input;
  return audited(database, by, { action: "persona_pause_requested", userId, details: { revision, paused } }, (adapter, gate) =>
    adapter.pause(userId, { revision, paused, gate }),
  );
}
