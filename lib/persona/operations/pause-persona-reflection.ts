// Pause (or, with `paused: false`, resume) reflection for an account at the revision the
// operator saw. Pausing cancels a reflection in flight: its result is discarded when it
// finishes (lib/persona/reflection.ts). The audit row commits with the change.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { auditedAccount } from "../audit";
import { personaFailure } from "../errors";
import { lockProfileAt } from "../profile-lock";
import { bumpRevision } from "../revision";
import { requireState } from "../state";
import type { PersonaState } from "../types";

export type PausePersonaReflectionInput = { userId: string; revision: number; paused: boolean };

export async function pausePersonaReflection(db: Db, input: PausePersonaReflectionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, paused } = input;
  const type = paused ? "persona_profile.paused" : "persona_profile.resumed";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { revision } });
      const p = await lockProfileAt(tx, userId, revision);
      const cancel = paused && p.reviewingId;
      if (cancel) {
        await tx.personaReview.updateMany({ where: { id: p.reviewingId!, status: "REVIEWING" }, data: { status: "CANCELLED", finishedAt: new Date() } });
      }
      await bumpRevision(tx, p, { paused, ...(cancel ? { reviewingId: null, reviewingSince: null, reviewState: "CANCELLED" } : {}) });
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
