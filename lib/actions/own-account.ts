"use server";
// The user menu's own-account actions, for every console user: change the own password (the
// current one required; other sessions ended on request) and "Sign out everywhere".
import { action } from "./action";
import { db } from "../db/client";
import { changeOwnPasswordSchema } from "../auth/users";
import { changeOwnPassword as change, signOutOwnSessions } from "../auth/operations";
import { sessionState } from "../auth/session";
import { z } from "zod";

/** The caller's session id: the one session a password change leaves open. */
async function ownSessionId(): Promise<string> {
  const state = await sessionState();
  if (!state?.ok) throw new Error("the session ended during the action");
  return state.sessionId;
}

export const changeOwnPassword = action("own:password", changeOwnPasswordSchema, async (input, { actor, audit }) =>
  change(db(), { userId: actor.id, sessionId: await ownSessionId(), ...input }, audit),
);

export const signOutEverywhere = action("own:sessions", z.object({}).strict(), async (_input, { actor, audit }) =>
  signOutOwnSessions(db(), { userId: actor.id }, audit),
);
