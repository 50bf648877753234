// Pause (or, with `paused: false`, resume) reflection for an account. Pausing cancels a
// reflection in flight; its result is discarded.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { audited } from "./audited";

export type PausePersonaReflectionInput = { userId: string; revision: number; paused: boolean };

export function pausePersonaReflection(database: Db, input: PausePersonaReflectionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, paused } = input;
  return audited(database, by, { userId, event: { type: paused ? "persona_profile.paused" : "persona_profile.resumed", data: { revision } } }, (adapter, gate) =>
    adapter.pause(userId, { revision, paused, gate }),
  );
}
