// Forgetting an account in OTLP ingestion: its staged traces go (their spans' attributes hold its
// prompts and messages), and an assembly that read a trace before the account was forgotten
// stores none of the account's runs or messages from it.
import { Prisma } from "../db/generated/client";
import type { Db, Tx } from "../db/prisma";
import { USER_KEYS } from "./conventions/shape";
import type { AssembledRun } from "./map";
import { forgetKey, forgottenAccount } from "../accounts/forget-key";

/** A condition on otlp_spans: the span names the account under one of the conventions' user keys. */
export const namesAccount = (userId: string) => Prisma.join(USER_KEYS.map((k) => Prisma.sql`attributes ->> ${k} = ${userId}`), " OR ");

/**
 * Deletes the staged traces any of whose spans names the account (under any convention's user
 * key), with all their spans; returns how many spans. Staged spans live a day at most
 * (pruneStagedSpans), so the scan stays small.
 */
export async function deleteAccountSpans(tx: Tx, userId: string): Promise<number> {
  const [r] = await tx.$queryRaw<{ n: number }[]>`
    WITH traces AS (SELECT DISTINCT trace_id FROM otlp_spans WHERE ${namesAccount(userId)}),
    gone AS (DELETE FROM otlp_traces t USING traces WHERE t.trace_id = traces.trace_id RETURNING 1),
    spans AS (DELETE FROM otlp_spans s USING traces WHERE s.trace_id = traces.trace_id RETURNING 1)
    SELECT (SELECT count(*) FROM spans)::int AS n`;
  return r.n;
}

/** The runs (and so their messages) whose account was not forgotten since `readAt`, when their trace's spans were read. */
export async function withoutForgotten(db: Db, runs: AssembledRun[], readAt: Date): Promise<AssembledRun[]> {
  const users = [...new Set(runs.flatMap((r) => r.workflow.user_id ?? []))];
  if (users.length === 0) return runs;
  const key = forgetKey();
  const byMark = new Map(users.map((u) => [forgottenAccount(u, key), u]));
  const marks = await db.accountForget.findMany({ where: { account: { in: [...byMark.keys()] }, forgottenAt: { gte: readAt } }, select: { account: true } });
  const forgotten = new Set(marks.map((f) => byMark.get(f.account)));
  return forgotten.size ? runs.filter((r) => !r.workflow.user_id || !forgotten.has(r.workflow.user_id)) : runs;
}
