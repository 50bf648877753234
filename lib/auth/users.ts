// Console users: listing, creation (with an initial or generated password shown once) and
// role / active changes. Each change commits with its audit row. An admin cannot demote or
// deactivate themselves, and the last active admin always stays.
import { z } from "zod";
import type { Db, Tx } from "../db/prisma";
import { recordAudit, type AuditContext } from "../audit/record";
import { hashPassword, randomPassword } from "./password";
import { Conflict, InvalidState, NotFound } from "../errors";

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

export const updateUserSchema = z
  .object({
    role: z.enum(ROLES).optional(),
    active: z.boolean().optional(),
    reason: z.string().trim().min(1, { error: "a reason is required" }).max(500),
  })
  .strict()
  .refine((v) => v.role !== undefined || v.active !== undefined, { error: "change role or active" });

export type UserView = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  created_at: string;
  last_login_at: string | null;
};

const userColumns = { id: true, email: true, name: true, role: true, active: true, createdAt: true, lastLoginAt: true } as const;

function view(u: { id: string; email: string; name: string | null; role: Role; active: boolean; createdAt: Date; lastLoginAt: Date | null }): UserView {
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
  return rows.map(view);
}

export async function findActiveUserByEmail(database: Db, email: string) {
  const user = await database.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  return user?.active ? user : null;
}

export async function createUser(database: Db, audit: AuditContext, input: z.output<typeof createUserSchema>) {
  const password = input.password ?? randomPassword();
  const passwordHash = await hashPassword(password);
  const duplicate = () => new Conflict(`A user with the email ${input.email} already exists.`);
  const user = await database.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw duplicate();
    const created = await tx.user.create({
      data: { email: input.email, name: input.name || null, role: input.role, passwordHash },
      select: userColumns,
    });
    await recordAudit(tx, audit, {
      type: "user.created",
      target: { type: "user", id: created.id },
      data: { email: created.email, role: created.role, password_generated: !input.password },
    });
    return created;
  }).catch((e: { code?: string }) => {
    throw e?.code === "P2002" ? duplicate() : e; // a concurrent create with the same email
  });
  return { user: view(user), generatedPassword: input.password ? null : password };
}

export async function updateUser(database: Db, audit: AuditContext, actorUserId: string | null, id: string, change: z.output<typeof updateUserSchema>) {
  const user = await database.$transaction(async (tx) => {
    // Serializes admin-set changes so that two admins demoting each other cannot leave none.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('proctor:users:admins'))`;
    const before = await tx.user.findUnique({ where: { id }, select: userColumns });
    if (!before) throw new NotFound("The user");
    const role = change.role ?? before.role;
    const active = change.active ?? before.active;
    const losesAdmin = before.role === "ADMIN" && before.active && (role !== "ADMIN" || !active);
    if (losesAdmin && id === actorUserId) throw new InvalidState("You cannot demote or deactivate your own account.");
    if (losesAdmin && (await activeAdmins(tx)) <= 1) throw new InvalidState("The last active admin cannot be demoted or deactivated.");
    const after = await tx.user.update({ where: { id }, data: { role, active }, select: userColumns });
    await recordAudit(tx, audit, {
      type: "user.updated",
      target: { type: "user", id },
      data: { role_before: before.role, role_after: role, active_before: before.active, active_after: active, reason: change.reason },
    });
    return after;
  });
  return view(user);
}

function activeAdmins(tx: Tx): Promise<number> {
  return tx.user.count({ where: { role: "ADMIN", active: true } });
}
