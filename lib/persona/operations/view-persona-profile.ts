// Read one account's persona for the console. Not a change, but audited like one: the view's
// audit row is written first in the read's transaction, and without it nothing is read.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { PERSONA_MESSAGES } from "../errors";
import type { PersonaState } from "../types";
import { audited } from "./audited";

/** null when the account has neither a persona nor any conversation evidence. */
export function viewPersonaProfile(database: Db, input: { userId: string }, by: AuditContext): Promise<PersonaState | null> {
  return audited(database, by, { userId: input.userId, event: { type: "persona_profile.viewed", data: {} } }, (adapter, gate) => adapter.view(input.userId, gate), PERSONA_MESSAGES.loadFailed);
}
