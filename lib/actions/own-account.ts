"use server";
// The user menu's "Change password", for every console user: the current password required,
// other sessions ended on request. ("Sign out everywhere" is a sign-out: app/api/auth.)
import { action } from "./action";
import { db } from "../db/client";
import { changeOwnPasswordSchema } from "../auth/users";
import { changeOwnPassword as change } from "../auth/operations";
import { sessionState } from "../auth/session";

/** The caller's session id: the one session a password change leaves open. */
async function ownSessionId(): Promise<string> {
  const state = await sessionState();
  if (!state?.ok) throw new Error("the session ended during the action");
  return state.sessionId;
}

export const changeOwnPassword = action("own:password", changeOwnPasswordSchema, async (input, { actor, audit }) =>
  change(db(), { userId: actor.id, sessionId: await ownSessionId(), ...input }, audit),
);
