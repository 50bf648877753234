// Undo the last applied change: the goals go back to what they were, as a new version. A
// pending proposal written against the reverted goals is superseded.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { actorId, audited } from "./audited";

export type UndoPersonaChangeInput = { userId: string; revision: number };

export function undoPersonaChange(database: Db, input: UndoPersonaChangeInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision } = input;
  return audited(database, by, { userId, event: { type: "persona_change.undone", data: { revision } } }, (adapter, gate) =>
    adapter.undo(userId, { revision, actorId: actorId(by), gate }),
  );
}
