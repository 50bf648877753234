// Forget an account (README "Forgetting and retention"): in one transaction, its conversation messages, persona (the
// profile row with its goals, every version, proposal and reflection), queued daily reviews and
// staged OTLP traces are deleted, its experiment cases lose their request and account, and the private fields of its runs removed (lib/learning/monitor/run-privacy.ts) with the
// runs marked forgotten. Class statistics and skills stay exact: runs keep their identity,
// outcome, time and trajectory hash; the classes' distinct queries and the account's skills'
// sample queries become digests or go, their counts unchanged. Runs are found by their account
// (user_id), whatever the agent's learning scope: under "agent" they sit in agent-wide classes
// (user scope ""), whose queries from this account's runs become digests and whose skills lose
// the sample queries these runs gave them, the other accounts' staying. The forget watermark is raised in
// the same transaction, so a reflection in flight writes nothing afterwards, and a persona made
// later starts from a new random identity at version 1 (versions restart, so the identity
// changes: one identity and version never name two different personas). Nothing keeps the id:
// the mark holds its HMAC under the forget key, what stays of its runs, classes and skills is
// renamed to this forget's keyed value (../rekey.ts), and the audit row names the account by
// its pseudonym only.
// Idempotent: forgetting again finds nothing left and answers the same way with zero counts.
import type { Db, Tx } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { accountPseudonym } from "../../persona/audit";
import { cancelDailyChecks } from "../../persona/daily-jobs";
import { lockAccount, raiseForgetMark } from "../../persona/forget-mark";
import { queryDigestSql, stripRunSql } from "../../learning/monitor/run-privacy";
import { deleteAccountSpans, namesAccount } from "../../otlp/forget";
import { forgetKey, forgottenAccount, forgottenAs } from "../forget-key";
import { rekeyAccount } from "../rekey";

export type ForgetAccountInput = { userId: string; reason: string | null };

export type ForgetAccountReport = {
  runs_forgotten: number;
  messages_deleted: number;
  persona_versions_deleted: number;
  proposals_deleted: number;
  reviews_deleted: number;
  /**
   * Skills kept with the sample queries of its runs removed now: the account's own (distilled
   * only from its runs), and agent-wide ones that held some of its queries.
   */
  skills_cleared: number;
};

/** Seen in runs, conversations, a persona, experiment cases, staged spans or an earlier forget. */
async function known(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ known: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM agents a JOIN workflows w ON w.agent_id = a.id AND w.user_id = ${userId})
      OR EXISTS (SELECT 1 FROM conversation_messages WHERE user_id = ${userId})
      OR EXISTS (SELECT 1 FROM account_personas WHERE user_id = ${userId})
      OR EXISTS (SELECT 1 FROM experiment_cases WHERE user_id = ${userId})
      OR EXISTS (SELECT 1 FROM otlp_spans WHERE ${namesAccount(userId)})
      OR EXISTS (SELECT 1 FROM account_forget_marks WHERE account = ${forgottenAccount(userId)}) AS known`;
  return row.known;
}

export async function forgetAccount(db: Db, input: ForgetAccountInput, by: AuditContext): Promise<ForgetAccountReport> {
  const { userId, reason } = input;
  // Runs without a user share the scope "": never an account.
  if (userId === "") throw new NotFound("The account");
  const pseudonym = await accountPseudonym(db, userId);
  // Before anything changes: without the key nothing could be recognised as forgotten later.
  const key = forgetKey();
  return db.$transaction(async (tx) => {
    // The account lock first, as every persona write takes it: a reflection claiming or finishing
    // now either committed before (what it wrote is deleted below) or waits and then sees the new
    // mark, with the account's messages and persona gone.
    await lockAccount(tx, userId);
    if (!(await known(tx, userId))) throw new NotFound(`The account '${userId}'`);
    const at = new Date();
    const mark = await raiseForgetMark(tx, userId, at);

    // Before the runs lose their text: the agent-wide skills' sample queries that came from them.
    const pooledSkills = await clearPooledSkillQueries(tx, userId);
    await digestClassQueries(tx, userId);
    const runs = await tx.$executeRaw`
      UPDATE workflows w SET ${stripRunSql(Prisma.sql`forgotten_at = ${at}`)}
      FROM agents a WHERE w.agent_id = a.id AND w.user_id = ${userId} AND w.forgotten_at IS NULL`;
    const skills = await tx.$executeRaw`
      UPDATE skills s SET queries = '{}', query_embeddings = '[]'::jsonb
      FROM agents a WHERE s.agent_id = a.id AND s.user_scope = ${userId}
        AND (s.queries <> '{}' OR s.query_embeddings <> '[]'::jsonb)`;
    const messages = await tx.conversationMessage.deleteMany({ where: { userId } });
    // Staged OTLP traces naming the account (prompts, messages) and its experiment cases' requests.
    await deleteAccountSpans(tx, userId);
    await tx.experimentCase.updateMany({ where: { userId }, data: { request: "", userId: null } });

    const versions = await tx.personaHistoryEntry.deleteMany({ where: { userId } });
    const proposals = await tx.personaProposal.deleteMany({ where: { userId } });
    const reviews = await tx.personaReview.deleteMany({ where: { userId } });
    const persona = await tx.accountPersona.deleteMany({ where: { userId } });
    await cancelDailyChecks(tx, userId);
    // Last: the messages' deletion above corrected the activity summaries under the id.
    await rekeyAccount(tx, userId, forgottenAs(userId, mark, key));

    const report: ForgetAccountReport = {
      runs_forgotten: runs,
      messages_deleted: messages.count,
      // The profile row is the current version; its history rows are the earlier ones.
      persona_versions_deleted: versions.count + persona.count,
      proposals_deleted: proposals.count,
      reviews_deleted: reviews.count,
      skills_cleared: skills + pooledSkills,
    };
    await recordAudit(tx, by, { type: "account.forgotten", target: { type: "account", id: pseudonym }, data: { ...report, reason } });
    return report;
  });
}

/** The account's runs in classes, by class, with their query digests (a forgotten or expired run holds the digest already). */
const accountClassQueries = (userId: string) => Prisma.sql`
  SELECT DISTINCT w.agent_id, w.user_scope, w.canonical_hash, ${queryDigestSql(Prisma.sql`w.normalized_query`)} AS digest
  FROM agents a JOIN workflows w ON w.agent_id = a.id AND w.user_id = ${userId}
  WHERE w.canonical_hash IS NOT NULL AND w.normalized_query <> ''`;

/**
 * The classes' distinct queries that came from the account's runs become digests. A class that
 * already holds the digest (the same query forgotten before, then sent again) keeps that one row:
 * the raw one goes and the class's distinct_queries counts the query once.
 */
async function digestClassQueries(tx: Tx, userId: string) {
  const digest = queryDigestSql(Prisma.sql`q.normalized_query`);
  const mine = Prisma.sql`
    SELECT q.agent_id, q.user_scope, q.canonical_hash, q.normalized_query, m.digest
    FROM trajectory_class_queries q
    JOIN (${accountClassQueries(userId)}) m ON (q.agent_id, q.user_scope, q.canonical_hash) = (m.agent_id, m.user_scope, m.canonical_hash)
    WHERE q.normalized_query NOT LIKE 'removed:%' AND ${digest} = m.digest`;
  await tx.$executeRaw`
    WITH twice AS (
      DELETE FROM trajectory_class_queries q USING (${mine}) t
      WHERE (q.agent_id, q.user_scope, q.canonical_hash, q.normalized_query) = (t.agent_id, t.user_scope, t.canonical_hash, t.normalized_query)
        AND EXISTS (SELECT 1 FROM trajectory_class_queries d
                    WHERE (d.agent_id, d.user_scope, d.canonical_hash, d.normalized_query) = (t.agent_id, t.user_scope, t.canonical_hash, t.digest))
      RETURNING q.agent_id, q.user_scope, q.canonical_hash
    )
    UPDATE trajectory_classes c SET distinct_queries = c.distinct_queries - n.n
    FROM (SELECT agent_id, user_scope, canonical_hash, count(*)::int AS n FROM twice GROUP BY 1, 2, 3) n
    WHERE (c.agent_id, c.user_scope, c.canonical_hash) = (n.agent_id, n.user_scope, n.canonical_hash)`;
  await tx.$executeRaw`
    UPDATE trajectory_class_queries q SET normalized_query = t.digest FROM (${mine}) t
    WHERE (q.agent_id, q.user_scope, q.canonical_hash, q.normalized_query) = (t.agent_id, t.user_scope, t.canonical_hash, t.normalized_query)`;
}

/**
 * Agent-wide skills (user scope "") keep the sample queries other accounts gave them; those equal
 * to one of this account's queries (trimmed, any case, as the cycle picked them) go, with their
 * vectors. The number of skills changed.
 */
const TRIMMED = " \t\n\r\f\v";

async function clearPooledSkillQueries(tx: Tx, userId: string): Promise<number> {
  return tx.$executeRaw`
    WITH mine AS (
      SELECT DISTINCT w.agent_id, lower(btrim(w.query, ${TRIMMED})) AS q
      FROM agents a JOIN workflows w ON w.agent_id = a.id AND w.user_id = ${userId}
      WHERE w.query <> ''
    ),
    kept AS (
      SELECT s.id,
        COALESCE(array_agg(x.q ORDER BY x.i) FILTER (WHERE m.q IS NULL), '{}') AS queries,
        COALESCE(jsonb_agg(s.query_embeddings -> (x.i::int - 1) ORDER BY x.i)
          FILTER (WHERE m.q IS NULL AND s.query_embeddings -> (x.i::int - 1) IS NOT NULL), '[]'::jsonb) AS embeddings
      FROM skills s
      CROSS JOIN LATERAL unnest(s.queries) WITH ORDINALITY AS x(q, i)
      LEFT JOIN mine m ON m.agent_id = s.agent_id AND m.q = lower(btrim(x.q, ${TRIMMED}))
      WHERE s.user_scope = '' AND s.agent_id IN (SELECT agent_id FROM mine)
      GROUP BY s.id
      HAVING bool_or(m.q IS NOT NULL)
    )
    UPDATE skills s SET queries = kept.queries, query_embeddings = kept.embeddings FROM kept WHERE s.id = kept.id`;
}
