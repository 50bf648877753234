// Forget an account (README "Forgetting and retention"): in one transaction, its conversation messages, persona (the
// profile row with its goals, every version, proposal and reflection) and queued daily reviews
// are deleted, and the private fields of its runs removed (lib/learning/monitor/run-privacy.ts) with the
// runs marked forgotten. Class statistics and skills stay exact: runs keep their identity,
// outcome, time and trajectory hash; the classes' distinct queries and the account's skills'
// sample queries become digests or go, their counts unchanged. The forget watermark is raised in
// the same transaction, so a reflection in flight writes nothing afterwards, and a persona made
// later starts from a new random identity at version 1 (versions restart, so the identity
// changes: one identity and version never name two different personas). The audit row names
// the account by its keyed pseudonym only.
// Idempotent: forgetting again finds nothing left and answers the same way with zero counts.
import type { Db, Tx } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { accountPseudonym } from "../../persona/audit";
import { cancelDailyChecks } from "../../persona/daily-jobs";
import { lockAccount, raiseForgetMark } from "../../persona/forget-mark";
import { queryDigestSql, stripRunSql } from "../../learning/monitor/run-privacy";

export type ForgetAccountInput = { userId: string; reason: string | null };

export type ForgetAccountReport = {
  runs_forgotten: number;
  messages_deleted: number;
  persona_versions_deleted: number;
  proposals_deleted: number;
  reviews_deleted: number;
  /** The account's own skills (distilled only from its runs) kept with their sample queries removed now. */
  skills_cleared: number;
};

/** Seen in runs, conversations, a persona or an earlier forget. */
async function known(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ known: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM agents a JOIN workflows w ON w.agent_id = a.id AND w.user_scope = ${userId})
      OR EXISTS (SELECT 1 FROM conversation_messages WHERE user_id = ${userId})
      OR EXISTS (SELECT 1 FROM account_personas WHERE user_id = ${userId})
      OR EXISTS (SELECT 1 FROM account_forgets WHERE user_id = ${userId}) AS known`;
  return row.known;
}

export async function forgetAccount(db: Db, input: ForgetAccountInput, by: AuditContext): Promise<ForgetAccountReport> {
  const { userId, reason } = input;
  // Runs without a user share the scope "": never an account.
  if (userId === "") throw new NotFound("The account");
  const pseudonym = await accountPseudonym(db, userId);
  return db.$transaction(async (tx) => {
    // The account lock first, as every persona write takes it: a reflection claiming or finishing
    // now either committed before (what it wrote is deleted below) or waits and then sees the new
    // mark, with the account's messages and persona gone.
    await lockAccount(tx, userId);
    if (!(await known(tx, userId))) throw new NotFound(`The account '${userId}'`);
    const at = new Date();
    await raiseForgetMark(tx, userId, at);

    const runs = await tx.$executeRaw`
      UPDATE workflows w SET ${stripRunSql(Prisma.sql`forgotten_at = ${at}`)}
      FROM agents a WHERE w.agent_id = a.id AND w.user_scope = ${userId} AND w.forgotten_at IS NULL`;
    await tx.$executeRaw`
      UPDATE trajectory_class_queries q SET normalized_query = ${queryDigestSql(Prisma.sql`q.normalized_query`)}
      FROM agents a WHERE q.agent_id = a.id AND q.user_scope = ${userId} AND q.normalized_query NOT LIKE 'removed:%'`;
    const skills = await tx.$executeRaw`
      UPDATE skills s SET queries = '{}', query_embeddings = '[]'::jsonb
      FROM agents a WHERE s.agent_id = a.id AND s.user_scope = ${userId}
        AND (s.queries <> '{}' OR s.query_embeddings <> '[]'::jsonb)`;
    const messages = await tx.conversationMessage.deleteMany({ where: { userId } });

    const versions = await tx.personaHistoryEntry.deleteMany({ where: { userId } });
    const proposals = await tx.personaProposal.deleteMany({ where: { userId } });
    const reviews = await tx.personaReview.deleteMany({ where: { userId } });
    const persona = await tx.accountPersona.deleteMany({ where: { userId } });
    await cancelDailyChecks(tx, userId);

    const report: ForgetAccountReport = {
      runs_forgotten: runs,
      messages_deleted: messages.count,
      // The profile row is the current version; its history rows are the earlier ones.
      persona_versions_deleted: versions.count + persona.count,
      proposals_deleted: proposals.count,
      reviews_deleted: reviews.count,
      skills_cleared: skills,
    };
    await recordAudit(tx, by, { type: "account.forgotten", target: { type: "account", id: pseudonym }, data: { ...report, reason } });
    return report;
  });
}
