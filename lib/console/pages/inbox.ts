// The review inbox (the console's home): everything awaiting a decision, grouped and counted,
// for one agent (`?agent=`) or all. Each group lists its first rows with where the decision is
// made; the counts are the sidebar's (lib/console/inbox.ts). Independent reads run in parallel.
import "server-only";
import type { Db } from "../../db/prisma";
import type { Scope } from "../../auth/access";
import { listReviewClasses } from "../../learning/review/class-list";
import { listReviewSkills } from "../../learning/review/skill-list";
import { marksText, skillMarks } from "../../learning/review/skill-marks";
import { listProcedures } from "../../ledger/console";
import type { LedgerScope } from "../../ledger/types";
import { SHADOW_EVALUATION_JOB } from "../../learning/shadow/enqueue";
import { listUnmapped, UNMAPPED_RECENT_DAYS } from "../../otlp/unmapped";
import { errorClass } from "../../jobs/schemas";
import { deadJobs as deadJobsWhere, failedDeliveries as failedDeliveriesWhere, flaggedSkills as flaggedSkillsWhere, inboxCounts, pendingProposals, INBOX_KINDS, type InboxCounts, type InboxKind } from "../inbox";
import { filterText, param, type SearchParams } from "../url";
import { formatNumber, pluralise } from "../../text/format";

/** Rows shown per group; "View all" opens the group's own page. */
export const INBOX_ROWS = 5;

/** Where each row's decision is made; the page turns it into a link. */
export type InboxTarget =
  | { type: "skill"; agentId: string; skillId: string }
  | { type: "class"; agentId: string; hash: string; userId: string | null }
  | { type: "persona"; userId: string }
  | { type: "procedure"; scope: LedgerScope; id: string }
  | { type: "agent"; agentId: string; anchor?: string }
  | { type: "webhooks" };

/**
 * `marks`: what a reviewer must know before opening it (an imported skill's scripts and review
 * warnings). `deadJobs`: the dead jobs the row stands for, retried or dismissed from the inbox.
 */
export type InboxRow = { key: string; title: string; detail: string; marks?: string; at: Date | null; target: InboxTarget; deadJobs?: { kind: string; agent_id: string | null } };
export type InboxGroup = { kind: InboxKind; count: number; rows: InboxRow[] };

const pct = (x: number) => `${Math.round(x * 100)}%`;
const skillTarget = (r: { agentId: string; id: string }): InboxTarget => ({ type: "skill", agentId: r.agentId, skillId: r.id });

type ProcedureRow = { id: string; agentId: string; agentName: string; userScope: string; sourceCanonicalHash: string; name: string; version: number; createdAt: Date };

/**
 * Skills of one procedure (agent and canonical hash) become one row counting them and their
 * accounts, linking to the skills list where they are decided together; a skill alone keeps its
 * row, naming its account when it has one.
 */
function byProcedure<R extends ProcedureRow>(rows: R[], one: (r: R) => InboxRow): InboxRow[] {
  const groups = Map.groupBy(rows, (r) => `${r.agentId}\u0000${r.sourceCanonicalHash}`);
  return [...groups.values()].map((g) => {
    if (g.length === 1) return one(g[0]);
    const first = g[0];
    const accounts = new Set(g.map((r) => r.userScope)).size;
    return {
      key: `procedure:${first.agentId}:${first.sourceCanonicalHash}`,
      title: `${first.name} v${first.version} · ${pluralise(g.length, "skill")} of one procedure`,
      detail: `${first.agentName} · ${pluralise(accounts, "account")} · review them together on Skills (select the group, then activate or reject)`,
      at: g.reduce((t, r) => (r.createdAt > t ? r.createdAt : t), first.createdAt),
      target: skillTarget(first),
    };
  });
}

const accountNote = (r: { userScope: string }) => (r.userScope ? ` · account ${r.userScope}` : "");

async function readySkills(db: Db, agent?: string): Promise<InboxRow[]> {
  const { rows } = await listReviewSkills(db, { status: "ready", sort: "listed", page: 1, page_size: INBOX_ROWS, agent });
  const marks = await skillMarks(db, rows.map((r) => r.id));
  return byProcedure(rows, (r) => ({
    key: r.id,
    title: `${r.name} v${r.version}`,
    detail: `${r.agentName}${accountNote(r)} · ${pluralise(r.readiness?.observations ?? 0, "observation")}, ${pct(r.readiness?.trajectory_match_rate ?? 0)} matched the class, ${pct(r.readiness?.matched_success_rate ?? 0)} of those succeeded`,
    marks: marksText(marks.get(r.id)),
    at: r.createdAt,
    target: skillTarget(r),
  }));
}

/** Shadow skills not yet ready, then candidates (review on, no shadow evaluation). */
async function waitingSkills(db: Db, agent?: string): Promise<InboxRow[]> {
  const [shadow, candidate] = await Promise.all([
    listReviewSkills(db, { status: "shadow", sort: "listed", page: 1, page_size: INBOX_ROWS * 2, agent }),
    listReviewSkills(db, { status: "candidate", sort: "listed", page: 1, page_size: INBOX_ROWS, agent }),
  ]);
  const rows = [...shadow.rows.filter((r) => !r.readiness?.ready), ...candidate.rows].slice(0, INBOX_ROWS);
  const marks = await skillMarks(db, rows.map((r) => r.id));
  return byProcedure(rows, (r) => ({
    marks: marksText(marks.get(r.id)),
    key: r.id,
    title: `${r.name} v${r.version}`,
    detail:
      r.status === "shadow"
        ? `${r.agentName}${accountNote(r)} · shadow · ${r.readiness?.reasons.join("; ") || "observing"}`
        : `${r.agentName}${accountNote(r)} · candidate · waiting for an admin's decision`,
    at: r.createdAt,
    target: skillTarget(r),
  }));
}

async function readyClasses(db: Db, agent?: string): Promise<InboxRow[]> {
  const { rows } = await listReviewClasses(db, { status: "ready", sort: "runs", page: 1, page_size: INBOX_ROWS, agent });
  return rows.map((r) => ({
    key: `${r.agentId}/${r.userScope}/${r.canonicalHash}`,
    title: r.tools.join(" → ") || "(no tools)",
    detail: `${r.agentName} · ${pluralise(r.executions, "run")}, ${pct(r.executions ? r.successes / r.executions : 0)} succeeded, ${pluralise(r.distinctQueries, "distinct query", "distinct queries")}`,
    at: r.lastSeen,
    target: { type: "class", agentId: r.agentId, hash: r.canonicalHash, userId: r.userScope || null },
  }));
}

async function personaProposals(db: Db, agent?: string): Promise<InboxRow[]> {
  const rows = await db.$queryRaw<{ user_id: string; created_at: Date }[]>`
    SELECT p.user_id, p.created_at FROM ${pendingProposals(agent)}
    ORDER BY p.created_at ASC, p.id LIMIT ${INBOX_ROWS}`;
  return rows.map((r) => ({ key: r.user_id, title: `Account ${r.user_id}`, detail: "A reflection suggests new learning goals", at: r.created_at, target: { type: "persona", userId: r.user_id } }));
}

async function flaggedSkills(db: Db, agent?: string): Promise<InboxRow[]> {
  const rows = await db.$queryRaw<{ id: string; agent_id: string; name: string; version: number; activations: number; deviations: number; updated_at: Date }[]>`
    SELECT id, agent_id, name, version, activations, deviations, updated_at FROM skills
    WHERE ${flaggedSkillsWhere(agent)}
    ORDER BY updated_at DESC, id LIMIT ${INBOX_ROWS}`;
  return rows.map((r) => ({
    key: r.id,
    title: `${r.name} v${r.version}`,
    detail: `${r.agent_id} · ${formatNumber(r.deviations)} of ${pluralise(r.activations, "activation")} took another path`,
    at: r.updated_at,
    target: { type: "skill", agentId: r.agent_id, skillId: r.id },
  }));
}

async function suspendedProcedures(db: Db, agent?: string): Promise<InboxRow[]> {
  const { rows } = await listProcedures(db, { agent, state: "suspended", page: 1 }, INBOX_ROWS);
  return rows.map((r) => ({
    key: `${r.scope.tenant}/${r.scope.agent}/${r.scope.environment}/${r.id}`,
    title: r.id,
    detail: `${r.scope.tenant} / ${r.scope.agent} / ${r.scope.environment} · ${r.task} · failure streak ${r.failure_streak} of ${r.max_failure_streak}`,
    at: r.created_at,
    target: { type: "procedure", scope: r.scope, id: r.id },
  }));
}

/** Dead jobs by kind and agent, each row retried or dismissed as a whole (lib/jobs/operations): the class of the newest error, never its text. */
async function deadJobs(db: Db, agent?: string): Promise<InboxRow[]> {
  const rows = await db.$queryRaw<{ kind: string; agent_id: string | null; n: number; last: Date | null; error: string | null }[]>`
    SELECT kind, agent_id, count(*)::int AS n, max(finished_at) AS last,
      (array_agg(last_error ORDER BY finished_at DESC NULLS LAST))[1] AS error
    FROM jobs WHERE ${deadJobsWhere(agent)}
    GROUP BY kind, agent_id ORDER BY max(finished_at) DESC NULLS LAST LIMIT ${INBOX_ROWS}`;
  return rows.map((r) => ({
    key: `${r.kind}/${r.agent_id ?? ""}`,
    title: pluralise(r.n, `${r.kind.replace(/[_.]/g, " ")} job`),
    detail: `${r.agent_id ?? "no agent"} · failed after every retry${errorClass(r.error) ? ` · last error ${errorClass(r.error)}` : ""}`,
    at: r.last,
    target: { type: "agent", agentId: r.agent_id ?? "", anchor: r.kind === SHADOW_EVALUATION_JOB ? "shadow-queue" : undefined },
    deadJobs: { kind: r.kind, agent_id: r.agent_id },
  }));
}

/** OTLP traces that made no runs, per agent and reason: what arrived (a sample span) and why it made nothing. */
async function unmappedTraces(db: Db, agent?: string): Promise<InboxRow[]> {
  const rows = await listUnmapped(db, { agent, recentDays: UNMAPPED_RECENT_DAYS, limit: INBOX_ROWS });
  return rows.map((r) => ({
    key: `${r.agentId ?? ""}/${r.reason}`,
    title: `${pluralise(r.traces, "trace")} ${r.agentId ? `of ${r.agentId} ` : ""}made no runs`,
    detail: `${r.reason} · sample span "${r.sampleSpanName}" with ${r.sampleAttributeKeys.length ? r.sampleAttributeKeys.join(", ") : "no attributes"}`,
    at: r.lastSeenAt,
    target: { type: "agent", agentId: r.agentId && r.agentKnown ? r.agentId : "", anchor: "unmapped-traces" },
  }));
}

/** Failed deliveries by endpoint and event: fixed at the receiver, then redelivered from Settings → Webhooks. */
async function failedWebhooks(db: Db): Promise<InboxRow[]> {
  const rows = await db.$queryRaw<{ url: string; event_type: string; n: number; last: Date | null; error: string | null }[]>`
    SELECT e.url, d.event_type, count(*)::int AS n, max(d.last_attempt_at) AS last,
      (array_agg(d.last_error ORDER BY d.last_attempt_at DESC NULLS LAST))[1] AS error
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE ${failedDeliveriesWhere}
    GROUP BY e.url, d.event_type ORDER BY max(d.last_attempt_at) DESC NULLS LAST LIMIT ${INBOX_ROWS}`;
  return rows.map((r) => ({
    key: `${r.url}/${r.event_type}`,
    title: `${pluralise(r.n, `${r.event_type} message`)} failed`,
    detail: `${r.url} · ${r.error ?? "no answer"}`,
    at: r.last,
    target: { type: "webhooks" },
  }));
}

const ROWS: Record<InboxKind, (db: Db, agent?: string) => Promise<InboxRow[]>> = {
  ready_skills: readySkills,
  shadow_skills: waitingSkills,
  ready_classes: readyClasses,
  persona_proposals: personaProposals,
  deviations: flaggedSkills,
  suspended_procedures: suspendedProcedures,
  dead_jobs: deadJobs,
  unmapped_traces: unmappedTraces,
  failed_webhooks: failedWebhooks,
};

/**
 * How far a new install has come (shown while nothing awaits a decision and no run has arrived
 * yet): an API key for the agent, an agent declared, its first runs sent.
 */
export type InboxSetup = { apiKey: boolean; agent: boolean; runs: boolean };

export type InboxPage = { agent: string | undefined; counts: InboxCounts; groups: InboxGroup[]; total: number; setup: InboxSetup | null };

async function setupProgress(db: Db): Promise<InboxSetup | null> {
  const [r] = await db.$queryRaw<{ api_key: boolean; agent: boolean; runs: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS api_key,
      EXISTS (SELECT 1 FROM agents WHERE deleting_at IS NULL) AS agent,
      EXISTS (SELECT 1 FROM agent_run_counters WHERE runs > 0) AS runs`;
  return r.runs ? null : { apiKey: r.api_key, agent: r.agent, runs: r.runs };
}

export async function loadInboxPage(db: Db, sp: SearchParams, can: (scope: Scope) => boolean): Promise<InboxPage> {
  const agent = filterText(param(sp, "agent"));
  const counts = await inboxCounts(db, can, agent);
  const kinds = INBOX_KINDS.filter((k) => (counts[k] ?? 0) > 0);
  const rows = await Promise.all(kinds.map((k) => ROWS[k](db, agent)));
  const groups = kinds.map((kind, i) => ({ kind, count: counts[kind]!, rows: rows[i] }));
  const total = groups.reduce((a, g) => a + g.count, 0);
  return { agent, counts, groups, total, setup: total === 0 && !agent ? await setupProgress(db) : null };
}
