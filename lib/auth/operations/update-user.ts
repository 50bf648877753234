// Change a console user's role or active flag, with a reason. An admin cannot demote or
// deactivate themselves (the acting user comes from the audit context, never from the
// input), and the last active admin always stays. The change and its audit row commit together.
import type { z } from "zod";
import type { Db, Tx } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { endUserSessions } from "../sessions";
import { userColumns, userView, type updateUserSchema } from "../users";

export type UpdateUserInput = { userId: string } & z.output<typeof updateUserSchema>;

export async function updateUser(database: Db, input: UpdateUserInput, by: AuditContext) {
  const { userId: id, reason } = input;
  const user = await database.$transaction(async (tx) => {
    // Serializes admin-set changes so that two admins demoting each other cannot leave none.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('proctor:users:admins'))`;
    const before = await tx.user.findUnique({ where: { id }, select: userColumns });
    if (!before) throw new NotFound("The user");
    const role = input.role ?? before.role;
    const active = input.active ?? before.active;
    const losesAdmin = before.role === "ADMIN" && before.active && (role !== "ADMIN" || !active);
    if (losesAdmin && by.actor?.type === "user" && id === by.actor.id) throw new InvalidState("You cannot demote or deactivate your own account.");
    if (losesAdmin && (await activeAdmins(tx)) <= 1) throw new InvalidState("The last active admin cannot be demoted or deactivated.");
    // A new role or a deactivation ends the user's sessions: the next request signs in again.
    if (role !== before.role || active !== before.active) await endUserSessions(tx, id, "ended_by_admin");
    const after = await tx.user.update({ where: { id }, data: { role, active }, select: userColumns });
    await recordAudit(tx, by, {
      type: "user.updated",
      target: { type: "user", id },
      data: { role_before: before.role, role_after: role, active_before: before.active, active_after: active, reason },
    });
    return after;
  });
  return userView(user);
}

function activeAdmins(tx: Tx): Promise<number> {
  return tx.user.count({ where: { role: "ADMIN", active: true } });
}
