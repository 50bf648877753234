// Every persona write ends by bumping the profile's revision, compare-and-swapped on the revision
// it locked. Operators act at the revision they saw (./profile-lock.ts#lockProfileAt), so a change
// made meanwhile turns their action into a PersonaConflict instead of a write over it.
import type { Tx } from "../db/prisma";
import type { AccountPersona, Prisma } from "../db/generated/client";
import { PersonaConflict } from "./errors";

/** Writes the change and the next revision; the row is locked (./profile-lock.ts), so the CAS cannot miss. */
export async function bumpRevision(tx: Tx, p: AccountPersona, data: Prisma.AccountPersonaUpdateManyMutationInput): Promise<void> {
  const r = await tx.accountPersona.updateMany({ where: { userId: p.userId, revision: p.revision }, data: { ...data, revision: p.revision + 1 } });
  if (r.count !== 1) throw new PersonaConflict("stale revision");
}
