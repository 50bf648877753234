// The persona evolution page's view model: one account's state, read through the audited
// profile view (its audit row first, nothing read without it), and the decisions behind its
// activity. A refused or failed read is a message for the page, not an error page.
import "server-only";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { isDomainError } from "../../errors";
import { ACTION_MESSAGES, validAccountId } from "../action-body";
import { personaDecisions } from "../decisions";
import { viewPersonaProfile } from "../operations";
import type { PersonaDecisions, PersonaState } from "../types";

export type PersonaPage = { state: PersonaState | null; decisions: PersonaDecisions | null; error: string | null };

export async function loadPersonaPage(db: Db, userId: string, audit: () => Promise<AuditContext>): Promise<PersonaPage> {
  if (!userId) return { state: null, decisions: null, error: null };
  const valid = validAccountId(userId);
  if (valid === null) return { state: null, decisions: null, error: ACTION_MESSAGES.account };
  try {
    const state = await viewPersonaProfile(db, { userId: valid }, await audit());
    return { state, decisions: state ? await personaDecisions(db, valid) : null, error: null };
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return { state: null, decisions: null, error: e.message };
  }
}
