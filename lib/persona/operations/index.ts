// Every persona operation by name, and the one dispatch from a parsed action body (the
// published POST /persona-evolution/action contract and the console's buttons) to them.
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

export { approvePersonaProposal, dismissPersonaProposal, pausePersonaReflection, reflectPersona, schedulePersonaDailyReview, undoPersonaChange };
export { viewPersonaProfile } from "./view-persona-profile";

export function runPersonaAction(database: Db, a: PersonaAction, by: AuditContext): Promise<PersonaState> {
  switch (a.action) {
    case "reflect":
      return reflectPersona(database, { userId: a.userId, trigger: "manual" }, by);
    case "approve":
      return approvePersonaProposal(database, a, by);
    case "dismiss":
      return dismissPersonaProposal(database, a, by);
    case "pause":
      return pausePersonaReflection(database, a, by);
    case "schedule":
      return schedulePersonaDailyReview(database, a, by);
    case "undo":
      return undoPersonaChange(database, a, by);
  }
}
