// Every persona operation by name, and the one dispatch from a parsed action body (the
// published POST /persona-evolution/action contract and the console's buttons) to them. Each
// takes (db, input, by): a typed input object and the audit context of who acts; its audit row
// commits with the change, or nothing is read or changed.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaAction } from "../action-body";
import type { PersonaState } from "../types";
import { approvePersonaProposal } from "./approve-persona-proposal";
import { dismissPersonaProposal } from "./dismiss-persona-proposal";
import { pausePersonaReflection } from "./pause-persona-reflection";
import { reflectPersona } from "./reflect-persona";
import { schedulePersonaDailyReview } from "./schedule-persona-daily-review";
import { undoPersonaChange } from "./undo-persona-change";

export { approvePersonaProposal, type PersonaDecisionInput } from "./approve-persona-proposal";
export { dismissPersonaProposal } from "./dismiss-persona-proposal";
export { pausePersonaReflection, type PausePersonaReflectionInput } from "./pause-persona-reflection";
export { reflectPersona, type ReflectPersonaInput } from "./reflect-persona";
export { schedulePersonaDailyReview, type SchedulePersonaDailyReviewInput } from "./schedule-persona-daily-review";
export { undoPersonaChange, type UndoPersonaChangeInput } from "./undo-persona-change";
export { viewPersonaProfile } from "./view-persona-profile";

export function runPersonaAction(db: Db, a: PersonaAction, by: AuditContext): Promise<PersonaState> {
  switch (a.action) {
    case "reflect":
      return reflectPersona(db, { userId: a.userId, trigger: "manual" }, by);
    case "approve":
      return approvePersonaProposal(db, a, by);
    case "dismiss":
      return dismissPersonaProposal(db, a, by);
    case "pause":
      return pausePersonaReflection(db, a, by);
    case "schedule":
      return schedulePersonaDailyReview(db, a, by);
    case "undo":
      return undoPersonaChange(db, a, by);
  }
}
