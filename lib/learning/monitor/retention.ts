// Retention (README "Forgetting and retention"): runs older than their agent's run_retention_days lose their private
// fields (lib/learning/monitor/run-privacy.ts) and are marked expired; conversation messages older than
// conversation_retention_days are deleted, and so are the quotes of them that persona reflections
// copied as evidence into proposals and history (lib/learning/monitor/quote-expiry.ts). Each agent's setting falls back to the instance
// default (PROCTOR_RUN_RETENTION_DAYS, PROCTOR_CONVERSATION_RETENTION_DAYS; off unless set).
// Nothing learning counted is touched: class statistics, daily counts, skill baselines and drift
// windows live in their own tables, and the runs keep identity, outcome, time and trajectory
// hash, so gates, baselines and drift windows read the same figures before and after.
// The worker runs it at start and hourly (lib/learning/jobs.ts), in batches of single
// statements, so no transaction holds many rows: each batch takes the newest runs past the cutoff
// through the (agent_id, created_at DESC) index, where the not-yet-expired ones are.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { resolveLearningConfig } from "../agents/config";
import { stripRunSql } from "./run-privacy";
import { expireQuotes, QUOTING_TABLES } from "./quote-expiry";
import { inBatches, retentionDays } from "../../jobs/upkeep";

export const RETENTION_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionDefaults = { runDays: number | null; conversationDays: number | null };
export type RetentionReport = { runsExpired: number; messagesDeleted: number; quotesExpired: number };

/** The instance defaults; a value outside 1–3650 days is ignored (retention stays off) and said so. */
export function retentionDefaultsFromEnv(env: NodeJS.ProcessEnv = process.env): RetentionDefaults {
  for (const name of ["PROCTOR_RUN_RETENTION_DAYS", "PROCTOR_CONVERSATION_RETENTION_DAYS"]) {
    if (env[name] && retentionDays(env[name]) === null) console.warn(`${name} must be a whole number of days from 1 to 3650; ignored`);
  }
  return { runDays: retentionDays(env.PROCTOR_RUN_RETENTION_DAYS), conversationDays: retentionDays(env.PROCTOR_CONVERSATION_RETENTION_DAYS) };
}

/** What an agent keeps: its own settings, else the instance defaults (null: forever). */
export function effectiveRetention(learning: unknown, defaults: RetentionDefaults): RetentionDefaults {
  const c = resolveLearningConfig(learning);
  return { runDays: c.run_retention_days ?? defaults.runDays, conversationDays: c.conversation_retention_days ?? defaults.conversationDays };
}

export async function applyRetention(
  db: Db,
  opts: { now?: Date; batchSize?: number; defaults?: RetentionDefaults } = {},
): Promise<RetentionReport> {
  const now = opts.now ?? new Date();
  const batch = opts.batchSize ?? RETENTION_BATCH;
  const defaults = opts.defaults ?? retentionDefaultsFromEnv();
  const report: RetentionReport = { runsExpired: 0, messagesDeleted: 0, quotesExpired: 0 };
  for (const agent of await db.agent.findMany({ select: { id: true, learning: true }, orderBy: { id: "asc" } })) {
    const keep = effectiveRetention(agent.learning, defaults);
    if (keep.runDays !== null) {
      const cutoff = new Date(now.getTime() - keep.runDays * DAY_MS);
      const kept = Prisma.sql`expired_at IS NULL AND forgotten_at IS NULL`;
      report.runsExpired += await inBatches(
        () => db.$executeRaw`
          UPDATE workflows SET ${stripRunSql(Prisma.sql`expired_at = ${now}`)}
          WHERE id IN (SELECT id FROM workflows WHERE agent_id = ${agent.id} AND created_at < ${cutoff} AND ${kept}
                       ORDER BY created_at DESC LIMIT ${batch}::int)
            AND ${kept}`,
        batch,
      );
    }
    if (keep.conversationDays !== null) {
      const cutoff = new Date(now.getTime() - keep.conversationDays * DAY_MS);
      report.messagesDeleted += await inBatches(
        () => db.$executeRaw`
          DELETE FROM conversation_messages
          WHERE id IN (SELECT id FROM conversation_messages WHERE agent_id = ${agent.id} AND timestamp < ${cutoff} LIMIT ${batch}::int)`,
        batch,
      );
      for (const table of QUOTING_TABLES) {
        report.quotesExpired += await inBatches(() => expireQuotes(db, table, { agentId: agent.id, before: cutoff, batch }), batch);
      }
    }
  }
  return report;
}
