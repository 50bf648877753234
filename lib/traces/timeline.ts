// Conversation traces: the threads matching a filter, and one thread as a single timeline of
// its messages, workflow runs (tool steps, and the skills that were supplied as context:
// ids and versions, never their text) and the persona reviews that read it (status, counts
// and usage, never goals or reasons).
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { cappedCount, keysetPage, type Cursor, type KeysetPage } from "../console/keyset";

export type TraceFilter = { agentId?: string; userId?: string; threadId?: string };

export type ThreadSummary = { agentId: string; userId: string | null; threadId: string; lastAt: Date; messages: number; runs: number };

/**
 * A tool step. Steps carry a start time, not a duration: `durationMs` is the agent's own
 * `duration_ms` when it sends one; `untilNextMs` is the time until the next step started, when
 * both have timestamps (an upper bound on the step's duration).
 */
export type TraceStep = {
  tool: string;
  arguments: unknown;
  result: unknown;
  error: unknown;
  timestamp: string | null;
  durationMs: number | null;
  untilNextMs: number | null;
};
export type SuppliedSkill = { id: string; name: string | null; version: number | null; status: string | null };

type Base = { at: Date; id: string; rootTraceId: string | null };
export type TimelineEvent =
  | (Base & { kind: "message"; agentId: string; messageId: string; role: string; text: string })
  | (Base & {
      kind: "run";
      agentId: string;
      userId: string | null;
      workflowId: string;
      canonicalHash: string | null;
      query: string;
      outcome: string;
      outcomeSource: string;
      executionError: unknown;
      answer: string | null;
      steps: TraceStep[];
      skills: SuppliedSkill[];
    })
  | (Base & {
      kind: "review";
      status: string;
      trigger: string;
      failure: string | null;
      evidenceCount: number;
      selectedCount: number;
      model: string | null;
      inputTokens: number | null;
      outputTokens: number | null;
      durationMs: number | null;
      estimatedCostUsd: number | null;
    });

export const TIMELINE_LIMIT = 500;
export const THREADS_PAGE_SIZE = 50;
export const REVIEW_THREAD_PREFIX = "persona-review:";

/** Ordered by time; at equal times messages come before runs before reviews, then by id. */
export function mergeTimeline(events: TimelineEvent[]): TimelineEvent[] {
  const rank = { message: 0, run: 1, review: 2 } as const;
  return [...events].sort((a, b) => a.at.getTime() - b.at.getTime() || rank[a.kind] - rank[b.kind] || a.id.localeCompare(b.id));
}

export function stepsOf(json: unknown): TraceStep[] {
  if (!Array.isArray(json)) return [];
  const steps = json.map((s) => {
    const o = (s && typeof s === "object" ? s : {}) as Record<string, unknown>;
    const duration = o.duration_ms;
    return {
      tool: typeof o.tool === "string" ? o.tool : "(unknown tool)",
      arguments: o.arguments ?? null,
      result: o.result ?? null,
      error: o.error ?? null,
      timestamp: typeof o.timestamp === "string" ? o.timestamp : null,
      durationMs: typeof duration === "number" && Number.isFinite(duration) && duration >= 0 ? duration : null,
      untilNextMs: null as number | null,
    };
  });
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    const gap = step.timestamp && next?.timestamp ? Date.parse(next.timestamp) - Date.parse(step.timestamp) : NaN;
    step.untilNextMs = Number.isFinite(gap) && gap >= 0 ? gap : null;
  });
  return steps;
}

/** LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The cursor keys of a thread (after its newest activity): thread, agent, account. */
export const THREAD_CURSOR_KEYS = 3;

/**
 * One keyset page of the threads matching a filter, newest activity first, read from the thread
 * summaries kept at write time, with a capped count. `search` matches a thread id or account in
 * part, or the text of a run's query or a user message in the thread (searched, never logged).
 */
export async function listThreads(
  database: Db,
  f: TraceFilter & { search?: string },
  page: { after: Cursor | null; pageSize: number } = { after: null, pageSize: THREADS_PAGE_SIZE },
): Promise<KeysetPage<ThreadSummary>> {
  const like = f.search ? containing(f.search) : null;
  const filters = [
    // Agents being deleted are hidden at once (README "Deleting an agent and exporting data").
    Prisma.sql`s.agent_id NOT IN (SELECT id FROM agents WHERE deleting_at IS NOT NULL)`,
    f.agentId ? Prisma.sql`s.agent_id = ${f.agentId}` : null,
    f.userId ? Prisma.sql`s.user_id = ${f.userId}` : null,
    like
      ? Prisma.sql`(s.thread_id ILIKE ${like} OR s.user_id ILIKE ${like}
          OR EXISTS (SELECT 1 FROM conversation_messages m WHERE (m.agent_id, m.user_id, m.thread_id) = (s.agent_id, s.user_id, s.thread_id) AND m.role = 'user' AND m.text ILIKE ${like})
          OR EXISTS (SELECT 1 FROM workflows w WHERE w.agent_id = s.agent_id AND w.thread_id = s.thread_id
                       AND (w.user_id = s.user_id OR (s.user_id = '' AND w.user_id IS NULL)) AND w.query ILIKE ${like}))`
      : null,
  ].filter((x): x is Prisma.Sql => x !== null);
  const where = (extra: Prisma.Sql[]) => {
    const all = [...filters, ...extra];
    return all.length ? Prisma.sql`WHERE ${Prisma.join(all, " AND ")}` : Prisma.empty;
  };
  const a = page.after;
  const after = a ? [Prisma.sql`(s.last_at, s.thread_id, s.agent_id, s.user_id) < (${a.at}, ${a.keys[0]}, ${a.keys[1]}, ${a.keys[2]})`] : [];
  const [rows, count] = await Promise.all([
    database.$queryRaw<{ agent_id: string; user_id: string; thread_id: string; last_at: Date; messages: number; runs: number }[]>`
      SELECT agent_id, user_id, thread_id, last_at, messages, runs FROM thread_summaries s ${where(after)}
      ORDER BY s.last_at DESC, s.thread_id DESC, s.agent_id DESC, s.user_id DESC LIMIT ${page.pageSize + 1}`,
    cappedCount(database, Prisma.sql`SELECT 1 FROM thread_summaries s ${where([])}`),
  ]);
  const threads = rows.map((r): ThreadSummary => ({ agentId: r.agent_id, userId: r.user_id || null, threadId: r.thread_id, lastAt: r.last_at, messages: r.messages, runs: r.runs }));
  return keysetPage(threads, page.pageSize, (t) => ({ at: t.lastAt, keys: [t.threadId, t.agentId, t.userId ?? ""] }), count);
}

/** One thread's timeline (newest TIMELINE_LIMIT of each kind); `truncated` when more exist. */
export async function threadTimeline(database: Db, f: TraceFilter & { threadId: string }): Promise<{ events: TimelineEvent[]; truncated: boolean }> {
  const scope = { threadId: f.threadId, ...(f.agentId ? { agentId: f.agentId } : {}), ...(f.userId ? { userId: f.userId } : {}) };
  const [messages, runs, reviews] = await Promise.all([
    database.conversationMessage.findMany({ where: scope, orderBy: [{ timestamp: "desc" }, { id: "desc" }], take: TIMELINE_LIMIT + 1 }),
    database.workflowRun.findMany({
      where: scope,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: TIMELINE_LIMIT + 1,
      select: {
        id: true, agentId: true, userId: true, workflowId: true, canonicalHash: true, rootTraceId: true, query: true, outcome: true, outcomeSource: true,
        executionError: true, answer: true, steps: true, skillsActivated: true, createdAt: true,
      },
    }),
    f.userId ? reviewsFor(database, f.userId, f.threadId) : Promise.resolve([]),
  ]);
  const skillIds = [...new Set(runs.flatMap((r) => r.skillsActivated))];
  const skills = new Map(
    (skillIds.length
      ? await database.skill.findMany({ where: { id: { in: skillIds } }, select: { id: true, name: true, version: true, status: true } })
      : []
    ).map((s) => [s.id, s]),
  );
  const events: TimelineEvent[] = [
    ...messages.slice(0, TIMELINE_LIMIT).map((m): TimelineEvent => ({
      kind: "message", at: m.timestamp, id: m.id, rootTraceId: m.rootTraceId, agentId: m.agentId, messageId: m.messageId, role: m.role, text: m.text,
    })),
    ...runs.slice(0, TIMELINE_LIMIT).map((r): TimelineEvent => ({
      kind: "run",
      at: r.createdAt,
      id: r.id,
      rootTraceId: r.rootTraceId,
      agentId: r.agentId,
      userId: r.userId,
      workflowId: r.workflowId,
      canonicalHash: r.canonicalHash,
      query: r.query,
      outcome: r.outcome,
      outcomeSource: r.outcomeSource,
      executionError: r.executionError,
      answer: r.answer,
      steps: stepsOf(r.steps),
      skills: r.skillsActivated.map((id) => {
        const s = skills.get(id);
        return { id, name: s?.name ?? null, version: s?.version ?? null, status: s?.status ?? null };
      }),
    })),
    ...reviews,
  ];
  return { events: mergeTimeline(events), truncated: messages.length > TIMELINE_LIMIT || runs.length > TIMELINE_LIMIT };
}

/** Reviews of this account that read this thread, or the one review a review thread stands for. */
async function reviewsFor(database: Db, userId: string, threadId: string): Promise<TimelineEvent[]> {
  const where = threadId.startsWith(REVIEW_THREAD_PREFIX)
    ? { userId, traceThreadId: threadId }
    : { userId, evidenceThreadIds: { has: threadId } };
  const rows = await database.personaReview.findMany({
    where,
    orderBy: { startedAt: "desc" },
    take: TIMELINE_LIMIT,
    // Deliberately no `reason`: a model-written reason may restate the goals.
    select: {
      id: true, status: true, trigger: true, failure: true, evidenceCount: true, selectedCount: true, model: true,
      inputTokens: true, outputTokens: true, durationMs: true, estimatedCostUsd: true, startedAt: true, finishedAt: true, traceRootId: true,
    },
  });
  return rows.map((r) => ({
    kind: "review",
    at: r.finishedAt ?? r.startedAt,
    id: r.id,
    rootTraceId: r.traceRootId,
    status: r.status.toLowerCase(),
    trigger: r.trigger.toLowerCase(),
    failure: r.failure,
    evidenceCount: r.evidenceCount,
    selectedCount: r.selectedCount,
    model: r.model,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    durationMs: r.durationMs,
    estimatedCostUsd: r.estimatedCostUsd,
  }));
}
