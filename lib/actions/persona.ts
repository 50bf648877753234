"use server";
// The persona page's buttons: the same operations, body rules and audit rows as the published
// POST /persona-evolution/action route (seed 003), which stays for other clients.
import { action } from "./action";
import { db } from "../db/client";
import { personaActionBody } from "../persona/action-body";
import { runPersonaAction as run } from "../persona/operations";

export const runPersonaAction = action("persona:decide", personaActionBody, async (input, { audit }) => run(db(), input, audit));
