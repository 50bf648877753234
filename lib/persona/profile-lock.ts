// Locking an account's persona row before any persona write reads it. The account's advisory
// lock comes first (the one a forget takes: ./forget-mark.ts), then the row lock, so writes,
// forgets and a first reflection creating the row are ordered one after another. A write at
// the revision the operator saw creates the profile from the account's evidence when none exists
// yet (a profile shown from evidence alone is revision 0).
import { randomBytes } from "node:crypto";
import type { Tx } from "../db/prisma";
import type { AccountPersona } from "../db/generated/client";
import { personaHistoryLimitFromEnv } from "./config";
import { PersonaConflict, PersonaNotFound } from "./errors";
import { lockAccount } from "./forget-mark";
import { DEFAULT_ROLE, startingPoint } from "./state";

/** Locks the persona row alone (to the end of the transaction), for writers that never create it. */
export async function lockProfileRow(tx: Tx, userId: string): Promise<AccountPersona | null> {
  await tx.$queryRaw`SELECT user_id FROM account_personas WHERE user_id = ${userId} FOR UPDATE`;
  return tx.accountPersona.findUnique({ where: { userId } });
}

/** The account lock, then the persona row's; null when the account has no persona. */
export async function lockProfile(tx: Tx, userId: string): Promise<AccountPersona | null> {
  await lockAccount(tx, userId);
  return lockProfileRow(tx, userId);
}

/** The locked persona, created at version 1 from the newest conversation's agent when there is none. */
export async function lockOrCreateProfile(tx: Tx, userId: string): Promise<AccountPersona> {
  const existing = await lockProfile(tx, userId);
  if (existing) return existing;
  const start = await startingPoint(tx, userId);
  if (!start) throw new PersonaNotFound();
  await tx.accountPersona.createMany({
    data: [
      {
        userId,
        agentId: start.agentId,
        name: start.name,
        role: DEFAULT_ROLE,
        personaId: `prs_${randomBytes(12).toString("base64url")}`,
        historyLimit: personaHistoryLimitFromEnv(),
      },
    ],
    skipDuplicates: true,
  });
  return (await lockProfile(tx, userId))!;
}

/** The locked persona at the revision the operator saw; any other revision is a PersonaConflict. */
export async function lockProfileAt(tx: Tx, userId: string, revision: number): Promise<AccountPersona> {
  const p = await lockOrCreateProfile(tx, userId);
  if (p.revision !== revision) throw new PersonaConflict("stale revision");
  return p;
}
