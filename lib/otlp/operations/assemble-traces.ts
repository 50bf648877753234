// Assemble settled traces' runs (the worker's otlp_assembly jobs, one queued per trace by
// ./stage-spans.ts, handed over many at a time: lib/jobs/runtime.ts registerBatchJobHandler):
// a trace that has received no new span for the settle time becomes runs (../map.ts) that enter
// through the batch API's ingestion (outcome rules, dedup, learning), one batch per agent for
// all the traces in hand, and conversation messages, one statement per agent. Runs are keyed by
// workflow_id otel:<trace>:<span>, so assembling a trace again (a retried job, spans re-exported
// or late) never makes a second run: an identical run is a duplicate, a different one (a late
// span) leaves the stored run as it was.
// Traces are assembled ASSEMBLY_BATCH at a time because a job per trace pays a handful of round
// trips per trace, which left OTLP ingestion at a small fraction of the batch API's rate; in
// batches the round trips are per batch and agent (`npm run bench:otlp`,
// docs/benchmarks.md#otlp).
import type { Db } from "../../db/prisma";
import { enqueueJobs } from "../../jobs/queue";
import { systemAuditContext } from "../../audit/record";
import { observeAgent, ingestConversations, ingestWorkflows } from "../../learning/operations";
import type { ConversationBody } from "../../learning/capture/schemas";
import { runsOfTrace, type AssembledRun, type ObservedTool } from "../map";
import { ASSEMBLY_JOB, autoAgents, settleMs, STAGED_SPAN_TTL_MS } from "../config";
import type { StagedSpan } from "../spans";

export type AssembleTracesResult = {
  /** Traces whose runs were stored (or that made none). */
  assembled: string[];
  /** Traces not settled yet, or that received a span meanwhile: queued again. */
  waiting: string[];
  /** Traces whose agent's ingestion failed (deleted meanwhile, the database): their jobs are retried. */
  failed: Map<string, Error>;
  runs: number;
};

/** Runs per ingestion call (the batch API's own largest batch) and messages per conversation statement. */
const RUNS_PER_BATCH = 500;
const MESSAGES_PER_STATEMENT = 1000;

export async function assembleTraces(db: Db, input: { traceIds: string[] }): Promise<AssembleTracesResult> {
  const settle = settleMs();
  const traces = await db.otlpTrace.findMany({ where: { traceId: { in: [...new Set(input.traceIds)] } } });
  const now = Date.now();
  const early = traces.filter((t) => now - t.lastSpanAt.getTime() < settle);
  const settled = traces.filter((t) => now - t.lastSpanAt.getTime() >= settle);
  const spans = settled.length ? await db.otlpSpan.findMany({ where: { traceId: { in: settled.map((t) => t.traceId) } } }) : [];
  const byTrace = groupBy(spans.map(stagedOf), (s) => s.traceId);
  const runs = settled.flatMap((t) => runsOfTrace(byTrace.get(t.traceId) ?? []));

  const failed = new Map<string, Error>();
  for (const agentRuns of groupBy(runs, (r) => r.agent.id).values()) {
    try {
      await storeRuns(db, agentRuns);
    } catch (e) {
      for (const r of agentRuns) failed.set(r.workflow.root_trace_id!, e as Error);
    }
  }

  // Done unless a span arrived meanwhile: then the export that brought it saw a job queued, so queue one.
  const done = settled.filter((t) => !failed.has(t.traceId));
  const marked = new Set(await markAssembled(db, done));
  const late = done.filter((t) => !marked.has(t.traceId));
  await enqueueJobs(db, [
    ...early.map((t) => ({ kind: ASSEMBLY_JOB, payload: { trace_id: t.traceId }, runAfter: new Date(t.lastSpanAt.getTime() + settle) })),
    ...late.map((t) => ({ kind: ASSEMBLY_JOB, payload: { trace_id: t.traceId }, runAfter: new Date(Date.now() + settle) })),
  ]);
  return {
    assembled: [...marked],
    waiting: [...early, ...late].map((t) => t.traceId),
    failed,
    runs: runs.filter((r) => !failed.has(r.workflow.root_trace_id!)).length,
  };
}

/** Clears `queued` of traces whose last span is still the one read; returns those it cleared. */
async function markAssembled(db: Db, traces: { traceId: string; lastSpanAt: Date }[]): Promise<string[]> {
  if (traces.length === 0) return [];
  const rows = JSON.stringify(traces.map((t) => ({ trace_id: t.traceId, last_span_at: t.lastSpanAt.toISOString() })));
  const marked = await db.$queryRaw<{ trace_id: string }[]>`
    UPDATE otlp_traces t SET queued = false, assembled_at = now()
    FROM jsonb_to_recordset(${rows}::jsonb) AS x(trace_id text, last_span_at timestamptz)
    WHERE t.trace_id = x.trace_id AND t.last_span_at = x.last_span_at
    RETURNING t.trace_id`;
  return marked.map((r) => r.trace_id);
}

/** One agent's runs: the agent observed once (its toolbox grown by every tool they used), their runs in batches, their messages in one statement. */
async function storeRuns(db: Db, runs: AssembledRun[]) {
  const agent = runs[0].agent;
  if (autoAgents()) await observeAgent(db, { agentId: agent.id, name: agent.name, tools: toolsOf(runs) }, systemAuditContext("otlp"));
  else if ((await db.agent.count({ where: { id: agent.id } })) === 0) return;
  for (let i = 0; i < runs.length; i += RUNS_PER_BATCH) {
    const results = await ingestWorkflows(db, agent.id, runs.slice(i, i + RUNS_PER_BATCH).map((r) => r.workflow));
    // 400: a run the ingestion refuses (limits) stays out, as the batch API would leave it.
    for (const r of results) if (r.status === 400) console.warn(`otlp: run ${runs[i + r.index].workflow.workflow_id} refused by validation`);
  }
  // Messages in statements of at most MESSAGES_PER_STATEMENT (a long thread in pieces).
  const pieces: ConversationBody[] = runs.flatMap(({ workflow: { user_id, thread_id, root_trace_id }, messages }) =>
    user_id && thread_id
      ? Array.from({ length: Math.ceil(messages.length / MESSAGES_PER_STATEMENT) }, (_, k) => ({
          user_id, thread_id, root_trace_id, messages: messages.slice(k * MESSAGES_PER_STATEMENT, (k + 1) * MESSAGES_PER_STATEMENT),
        }))
      : [],
  );
  let statement: ConversationBody[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size + piece.messages.length > MESSAGES_PER_STATEMENT) {
      await ingestConversations(db, agent.id, statement);
      [statement, size] = [[], 0];
    }
    statement.push(piece);
    size += piece.messages.length;
  }
  if (statement.length) await ingestConversations(db, agent.id, statement);
}

// Map.groupBy needs Node 21.
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) (groups.get(key(item)) ?? groups.set(key(item), []).get(key(item))!).push(item);
  return groups;
}

/** The tools of all the runs, first sighting of each name first. */
function toolsOf(runs: AssembledRun[]): ObservedTool[] {
  const tools = new Map<string, ObservedTool>();
  for (const r of runs) for (const t of r.tools) if (!tools.has(t.name)) tools.set(t.name, t);
  return [...tools.values()];
}

function stagedOf(r: {
  traceId: string; spanId: string; parentSpanId: string | null; name: string; startNs: bigint; endNs: bigint;
  statusCode: number; statusMessage: string | null; serviceName: string | null; attributes: unknown; events: unknown;
}): StagedSpan {
  return {
    traceId: r.traceId,
    spanId: r.spanId,
    parentSpanId: r.parentSpanId,
    name: r.name,
    startNs: r.startNs.toString(),
    endNs: r.endNs.toString(),
    statusCode: r.statusCode,
    statusMessage: r.statusMessage,
    serviceName: r.serviceName,
    attributes: (r.attributes ?? {}) as StagedSpan["attributes"],
    events: (r.events ?? []) as StagedSpan["events"],
  };
}

/** Deletes staged traces (and their spans) that received nothing for a day, assembled or not; returns how many traces. */
export async function pruneStagedSpans(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - STAGED_SPAN_TTL_MS);
  const [r] = await db.$queryRaw<{ n: bigint }[]>`
    WITH old AS (DELETE FROM otlp_traces WHERE last_span_at < ${before} RETURNING trace_id),
    spans AS (DELETE FROM otlp_spans s USING old WHERE s.trace_id = old.trace_id RETURNING 1)
    SELECT count(*) AS n FROM old`;
  return Number(r.n);
}
