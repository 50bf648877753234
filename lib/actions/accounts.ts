"use server";
// Forgetting an account from the console (the persona page today; an accounts page can use the
// same action): the operation behind DELETE /api/v1/accounts/{user_id}, with a required reason.
import { action } from "./action";
import { db } from "../db/client";
import { forgetAccountAction } from "../accounts/schemas";
import { forgetAccount as forget } from "../accounts/operations";

export const forgetAccount = action("accounts:forget", forgetAccountAction, async (input, { audit }) =>
  forget(db(), { userId: input.user_id, reason: input.reason }, audit),
);
