// What awaits an admin's decision, by kind: counts for the sidebar and the inbox's groups,
// each read with the query its own page uses (skill readiness, class_review_status, the
// deviation flag, ledger state, persona proposals, dead jobs). Only the kinds the user may
// read are counted; all run in parallel.
import "server-only";
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import type { Scope } from "../auth/access";
import { DEVIATION_FLAG_PREFIX } from "../learning/drift";
import { agentConfigs, likeEscape } from "../learning/review/agent-configs";
import { classStatusCounts } from "../learning/review/class-list";
import { skillTotals } from "../learning/review/skill-list";
import { checkLedgerSchema } from "../ledger/schema-version";
import { INBOX_SCOPE, type InboxCounts } from "./inbox-words";

export * from "./inbox-words";

/** Where a flagged skill's deviation flag is found (review_flags holds other flags too). */
export const deviationFlagPattern = () => `${likeEscape(DEVIATION_FLAG_PREFIX)}%`;

/** Persona proposals awaiting a decision, by the agent the account talks to. */
async function pendingProposals(db: Db, agent: string | undefined): Promise<number> {
  const [r] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM persona_proposals p
    ${proposalAgentJoin(agent)}
    WHERE p.status = 'PENDING'`;
  return r.n;
}

/** Proposals of the accounts that talk to `agent` (none: every account). */
export const proposalAgentJoin = (agent: string | undefined) =>
  agent ? Prisma.sql`JOIN account_personas a ON a.user_id = p.user_id AND a.agent_id = ${agent}` : Prisma.empty;

async function flaggedSkills(db: Db, agent: string | undefined): Promise<number> {
  const [r] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM skills
    WHERE status = 'ACTIVE' ${agent ? Prisma.sql`AND agent_id = ${agent}` : Prisma.empty}
      AND EXISTS (SELECT 1 FROM unnest(review_flags) f WHERE f LIKE ${deviationFlagPattern()})`;
  return r.n;
}

async function suspendedProcedures(db: Db, agent: string | undefined): Promise<number> {
  await checkLedgerSchema(db);
  return db.ledgerProcedure.count({ where: { state: "SUSPENDED", ...(agent ? { agent } : {}) } });
}

async function deadJobs(db: Db, agent: string | undefined): Promise<number> {
  return db.job.count({ where: { status: "DEAD", ...(agent ? { agentId: agent } : {}) } });
}

/** Every kind's count the user may see (`can`), for one agent or all. */
export async function inboxCounts(db: Db, can: (scope: Scope) => boolean, agent?: string): Promise<InboxCounts> {
  const agents = can("learning:read") ? await agentConfigs(db, agent) : [];
  const learning = agents.length > 0;
  const [skills, classes, proposals, flagged, suspended, dead] = await Promise.all([
    learning ? skillTotals(db, agents, {}) : null,
    learning ? classStatusCounts(db, agents, undefined, new Date()) : null,
    can(INBOX_SCOPE.persona_proposals) ? pendingProposals(db, agent) : null,
    learning ? flaggedSkills(db, agent) : null,
    can(INBOX_SCOPE.suspended_procedures) ? suspendedProcedures(db, agent) : null,
    learning ? deadJobs(db, agent) : null,
  ]);
  const out: InboxCounts = {};
  if (can("learning:read")) {
    out.ready_skills = skills?.counts.ready ?? 0;
    out.shadow_skills = skills ? skills.counts.shadow - skills.counts.ready + skills.counts.candidate : 0;
    out.ready_classes = classes?.ready ?? 0;
    out.deviations = flagged ?? 0;
    out.dead_jobs = dead ?? 0;
  }
  if (proposals !== null) out.persona_proposals = proposals;
  if (suspended !== null) out.suspended_procedures = suspended;
  return out;
}

