// Create a console user with an initial password, or a generated one returned once (never
// stored in clear or audited). The user and the audit row commit together; an email already
// taken is a Conflict, also when two admins create it at the same moment.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { Conflict } from "../../errors";
import { hashPassword, randomPassword } from "../password";
import { userColumns, userView, type createUserSchema } from "../users";

export type CreateUserInput = z.output<typeof createUserSchema>;

export async function createUser(database: Db, input: CreateUserInput, by: AuditContext) {
  const password = input.password ?? randomPassword();
  const passwordHash = await hashPassword(password);
  const duplicate = () => new Conflict(`A user with the email ${input.email} already exists.`);
  const user = await database.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw duplicate();
    const created = await tx.user.create({
      data: { email: input.email, name: input.name || null, role: input.role, passwordHash },
      select: userColumns,
    });
    await recordAudit(tx, by, {
      type: "user.created",
      target: { type: "user", id: created.id },
      data: { email: created.email, role: created.role, password_generated: !input.password },
    });
    return created;
  }).catch((e: { code?: string }) => {
    throw e?.code === "P2002" ? duplicate() : e; // a concurrent create with the same email
  });
  return { user: userView(user), generatedPassword: input.password ? null : password };
}
