// What awaits an admin's decision, by kind: counts for the sidebar and the inbox's groups,
// each read with the condition its own page uses (skill readiness, class_review_status, the
// deviation flag, ledger state, persona proposals, dead jobs, OTLP traces that made no runs,
// webhook deliveries that failed every attempt: instance-wide, so only without an agent filter).
// Only the kinds the user may read are counted, all in one statement after the agents'
// configuration: the sidebar asks on every page. Agents being deleted (deleting_at) count nowhere.
import "server-only";
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import type { Scope } from "../auth/access";
import { DEVIATION_FLAG_PREFIX } from "../learning/monitor/drift";
import { agentConfigs, likeEscape } from "../learning/review/agent-configs";
import { readyClassCountSql } from "../learning/review/class-list";
import { skillInboxCountsSql } from "../learning/review/skill-list";
import { checkLedgerSchema } from "../ledger/schema-version";
import { unmappedWhere, UNMAPPED_RECENT_DAYS } from "../otlp/unmapped";
import { INBOX_SCOPE, type InboxCounts } from "./inbox-words";

export * from "./inbox-words";

/** Rows whose agent (`column`) is not being deleted (rows without an agent stay). */
const notDeleting = (column: Prisma.Sql) => Prisma.sql`NOT EXISTS (SELECT 1 FROM agents g WHERE g.id = ${column} AND g.deleting_at IS NOT NULL)`;
const ofAgent = (column: Prisma.Sql, agent: string | undefined) => (agent ? Prisma.sql`AND ${column} = ${agent}` : Prisma.empty);

/** Pending persona proposals (`FROM` … `WHERE`), of the accounts that talk to `agent` (none: every account). */
export const pendingProposals = (agent: string | undefined) => Prisma.sql`
  persona_proposals p ${agent ? Prisma.sql`JOIN account_personas a ON a.user_id = p.user_id AND a.agent_id = ${agent}` : Prisma.empty}
  WHERE p.status = 'PENDING'
    AND NOT EXISTS (SELECT 1 FROM account_personas ap JOIN agents g ON g.id = ap.agent_id WHERE ap.user_id = p.user_id AND g.deleting_at IS NOT NULL)`;

/** Active skills carrying the deviation flag (review_flags holds other flags too): the `WHERE` of `FROM skills`. */
export const flaggedSkills = (agent: string | undefined) => Prisma.sql`
  status = 'ACTIVE' ${ofAgent(Prisma.sql`agent_id`, agent)} AND ${notDeleting(Prisma.sql`skills.agent_id`)}
  AND EXISTS (SELECT 1 FROM unnest(review_flags) f WHERE f LIKE ${`${likeEscape(DEVIATION_FLAG_PREFIX)}%`})`;

/** Dead jobs: the `WHERE` of `FROM jobs`. Also without any agent declared: a trace's assembly has none until it runs. */
export const deadJobs = (agent: string | undefined) => Prisma.sql`status = 'DEAD' ${ofAgent(Prisma.sql`agent_id`, agent)} AND ${notDeleting(Prisma.sql`jobs.agent_id`)}`;

/**
 * OTLP traces that made no runs, received within UNMAPPED_RECENT_DAYS: the `WHERE` of `FROM
 * otlp_unmapped_traces u`. Also without any agent declared: they may be why there is none.
 */
export const unmappedTraces = (agent: string | undefined) => unmappedWhere({ agent, recentDays: UNMAPPED_RECENT_DAYS });

type CountsRow = {
  skills: number[] | null;
  ready_classes: number | null;
  deviations: number | null;
  dead_jobs: number | null;
  unmapped_traces: number | null;
  persona_proposals: number | null;
  suspended_procedures: number | null;
  failed_webhooks: number | null;
};

/** Webhook deliveries that failed their last round of attempts: the `WHERE` of `FROM webhook_deliveries`. */
export const failedDeliveries = Prisma.sql`status = 'FAILED'`;

/** Every kind's count the user may see (`can`), for one agent or all. */
export async function inboxCounts(db: Db, can: (scope: Scope) => boolean, agent?: string): Promise<InboxCounts> {
  const learning = can("learning:read");
  const persona = can(INBOX_SCOPE.persona_proposals);
  const ledger = can(INBOX_SCOPE.suspended_procedures);
  const webhooks = !agent && can(INBOX_SCOPE.failed_webhooks);
  const [agents] = await Promise.all([learning ? agentConfigs(db, agent) : [], ledger ? checkLedgerSchema(db) : null]);
  const some = agents.length > 0;
  const when = (on: boolean, sql: Prisma.Sql) => (on ? sql : Prisma.sql`NULL`);
  const [r] = await db.$queryRaw<CountsRow[]>`
    SELECT
      ${when(some, skillInboxCountsSql(agents))} AS skills,
      ${when(some, readyClassCountSql(agents, new Date()))} AS ready_classes,
      ${when(some, Prisma.sql`(SELECT count(*)::int FROM skills WHERE ${flaggedSkills(agent)})`)} AS deviations,
      ${when(learning, Prisma.sql`(SELECT count(*)::int FROM jobs WHERE ${deadJobs(agent)})`)} AS dead_jobs,
      ${when(learning, Prisma.sql`(SELECT coalesce(sum(traces), 0)::int FROM otlp_unmapped_traces u WHERE ${unmappedTraces(agent)})`)} AS unmapped_traces,
      ${when(persona, Prisma.sql`(SELECT count(*)::int FROM ${pendingProposals(agent)})`)} AS persona_proposals,
      ${when(ledger, Prisma.sql`(SELECT count(*)::int FROM ledger_procedures WHERE state = 'SUSPENDED' ${ofAgent(Prisma.sql`agent`, agent)})`)} AS suspended_procedures,
      ${when(webhooks, Prisma.sql`(SELECT count(*)::int FROM webhook_deliveries WHERE ${failedDeliveries})`)} AS failed_webhooks`;
  const out: InboxCounts = {};
  if (learning) {
    const [ready, shadow, candidate] = r.skills ?? [0, 0, 0];
    out.ready_skills = ready;
    out.shadow_skills = shadow - ready + candidate;
    out.ready_classes = r.ready_classes ?? 0;
    out.deviations = r.deviations ?? 0;
    out.dead_jobs = r.dead_jobs ?? 0;
    out.unmapped_traces = r.unmapped_traces ?? 0;
  }
  if (persona) out.persona_proposals = r.persona_proposals!;
  if (ledger) out.suspended_procedures = r.suspended_procedures!;
  if (webhooks) out.failed_webhooks = r.failed_webhooks!;
  return out;
}
