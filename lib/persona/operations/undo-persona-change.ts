// Undo the newest applied change not yet undone: the goals go back to what they were before it,
// as a new version. Repeated undos walk back one approved version each, down to v1 (lib/persona/undo.ts).
// A pending proposal written against the reverted goals is superseded.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { actorId, audited } from "./audited";

export type UndoPersonaChangeInput = { userId: string; revision: number; reason?: string };

export function undoPersonaChange(database: Db, input: UndoPersonaChangeInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, reason } = input;
  return audited(database, by, { userId, event: { type: "persona_change.undone", data: { revision } } }, (adapter, gate) =>
    adapter.undo(userId, { revision, actorId: actorId(by), gate, reason }),
  );
}
