"use server";
// The persona page's buttons: the same operations, body rules and audit rows as the published
// POST /persona-evolution/action route, which stays for other clients; the console
// also requires a reason to dismiss or undo.
import { action } from "./action";
import { db } from "../db/client";
import { personaActionBody, REASON_REQUIRED, REASON_REQUIRED_MESSAGE } from "../persona/action-body";
import { runPersonaAction as run } from "../persona/operations";

const consoleBody = personaActionBody.refine((a) => !REASON_REQUIRED.has(a.action) || ("reason" in a && !!a.reason), { error: REASON_REQUIRED_MESSAGE });

export const runPersonaAction = action("persona:decide", consoleBody, async (input, { audit }) => run(db(), input, audit));
