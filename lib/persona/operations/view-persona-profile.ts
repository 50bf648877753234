// Read one account's persona for the console. Not a change, but audited like one: the view's
// audit row is written first in the read's transaction, and without it nothing is read. An
// account with conversations but no stored persona shows the profile it would start from.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { auditedAccount } from "../audit";
import { personaHistoryLimitFromEnv } from "../config";
import { PERSONA_MESSAGES, personaFailure } from "../errors";
import { initialState, loadState, startingPoint } from "../state";
import type { PersonaState } from "../types";

/** null when the account has neither a persona nor any conversation evidence. */
export async function viewPersonaProfile(db: Db, input: { userId: string }, by: AuditContext): Promise<PersonaState | null> {
  const { userId } = input;
  const type = "persona_profile.viewed";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: {} });
      const stored = await loadState(tx, userId);
      if (stored) return stored;
      const start = await startingPoint(tx, userId);
      return start ? initialState(userId, start.agentId, start.name, personaHistoryLimitFromEnv()) : null;
    });
  } catch (e) {
    throw personaFailure(e, by, type, PERSONA_MESSAGES.loadFailed);
  }
}
