// Console users: the form's schemas, the listing and the view. Creating and changing a user
// are operations (./operations).
import { z } from "zod";
import type { Db } from "../db/prisma";

export const ROLES = ["ADMIN", "VIEWER"] as const;
export type Role = (typeof ROLES)[number];

export const MIN_PASSWORD_LENGTH = 12;

export const createUserSchema = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email({ error: "must be an email address" })).pipe(z.string().max(320)),
    name: z.string().trim().max(200).optional(),
    role: z.enum(ROLES),
    /** Omitted: a random password is generated and returned once. */
    password: z.string().min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1024).optional(),
  })
  .strict();

/** Why an admin changes someone's account: it goes to the audit row. */
const reason = z.string().trim().min(1, { error: "a reason is required" }).max(500);

export const updateUserSchema = z
  .object({
    role: z.enum(ROLES).optional(),
    active: z.boolean().optional(),
    reason,
  })
  .strict()
  .refine((v) => v.role !== undefined || v.active !== undefined, { error: "change role or active" });

/** A user's own password change (the current password required). */
export const changeOwnPasswordSchema = z
  .object({
    current_password: z.string().min(1, { error: "enter your current password" }).max(1024),
    new_password: z.string().min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1024),
    /** End every other session of the user (this one stays). */
    end_other_sessions: z.boolean(),
  })
  .strict();

/** Sign out everywhere, reset a password: changes that take only the admin's reason. */
export const userReasonSchema = z.object({ reason }).strict();

export type UserView = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  created_at: string;
  last_login_at: string | null;
};

export const userColumns = { id: true, email: true, name: true, role: true, active: true, createdAt: true, lastLoginAt: true } as const;

export function userView(u: { id: string; email: string; name: string | null; role: Role; active: boolean; createdAt: Date; lastLoginAt: Date | null }): UserView {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    active: u.active,
    created_at: u.createdAt.toISOString(),
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
  };
}

export async function listUsers(database: Db): Promise<UserView[]> {
  const rows = await database.user.findMany({ select: userColumns, orderBy: [{ active: "desc" }, { email: "asc" }] });
  return rows.map(userView);
}

export async function findActiveUserByEmail(database: Db, email: string) {
  const user = await database.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  return user?.active ? user : null;
}
