"use server";
// Settings → Users: create (a generated password is in this answer only), change a role,
// deactivate or reactivate, sign out everywhere, reset a password (the generated one is in this
// answer only), each with the admin's reason in the audit row.
import { action } from "./action";
import { pathId } from "../path-id";
import { db } from "../db/client";
import { createUserSchema, updateUserSchema, userReasonSchema } from "../auth/users";
import { createUser as create, resetPassword as reset, signOutEverywhere as endSessions, updateUser as update } from "../auth/operations";

export const createUser = action("users:manage", createUserSchema, async (input, { audit }) => {
  const { user, generatedPassword } = await create(db(), input, audit);
  return { user, generated_password: generatedPassword };
});

export const updateUser = action("users:manage", updateUserSchema.extend({ id: pathId }), async ({ id, ...change }, { audit }) => ({
  user: await update(db(), { userId: id, ...change }, audit),
}));

export const signOutEverywhere = action("users:manage", userReasonSchema.extend({ id: pathId }), async ({ id, reason }, { audit }) => ({
  user: await endSessions(db(), { userId: id, reason }, audit),
}));

export const resetPassword = action("users:manage", userReasonSchema.extend({ id: pathId }), async ({ id, reason }, { audit }) => {
  const { user, generatedPassword } = await reset(db(), { userId: id, reason }, audit);
  return { user, generated_password: generatedPassword };
});
