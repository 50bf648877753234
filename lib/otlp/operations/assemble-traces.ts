// Assemble settled traces' runs (the worker's otlp_assembly jobs, one queued per trace by
// ./stage-spans.ts, handed over many at a time: lib/jobs/runtime.ts registerBatchJobHandler):
// a trace that has received no new span for the settle time becomes runs (../map.ts) that enter
// through the batch API's ingestion (outcome rules, dedup, learning), one batch per agent for
// all the traces in hand, and conversation messages, one statement per agent. Runs are keyed by
// workflow_id otel:<trace>:<span>, so assembling a trace again (a retried job, spans re-exported
// or late) never makes a second run: an identical run is a duplicate, a different one (a late
// span) leaves the stored run as it was. A trace that makes no run (no invocation or tool call,
// no agent to name, an undeclared agent without auto agents, runs the ingestion refuses) is
// counted with its reason in otlp_unmapped_traces on its first assembly (../unmapped.ts).
// Traces are assembled ASSEMBLY_BATCH at a time because a job per trace pays a handful of round
// trips per trace, which left OTLP ingestion at a small fraction of the batch API's rate; in
// batches the round trips are per batch and agent. The reads and the marking go through the
// plain pg pool (queryRows), the spans of each trace as one JSON text: Prisma's result mapping of
// the span rows (jsonb columns, bigints) was a sixth of a run's server CPU
// (`npm run bench:otlp`, docs/benchmarks.md#otlp).
import { Prisma } from "../../db/generated/client";
import { queryRows, type Db } from "../../db/prisma";
import { enqueueJobs } from "../../jobs/queue";
import { systemAuditContext, type AuditContext } from "../../audit/record";
import { observeAgent, ingestConversations, ingestWorkflows } from "../../learning/operations";
import type { ConversationBody } from "../../learning/capture/schemas";
import { runsOfTrace, type AssembledRun, type ObservedTool } from "../map";
import { ASSEMBLY_JOB, autoAgents, growToolboxes, settleMs, STAGED_SPAN_TTL_MS } from "../config";
import { MAX_AUTO_TOOLS_PER_AGENT } from "../limits";
import { keyActors } from "../key-actors";
import { withoutForgotten } from "../forget";
import type { StagedSpan } from "../spans";
import { pruneUnmapped, recordUnmapped, sampleOf, UNMAPPED_REASON, whyNoRuns, type UnmappedTrace } from "../unmapped";
import { mapInSlices } from "../../slices";

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
/**
 * Traces mapped between two returns to the event loop: 20 of a few KiB of spans each, fewer of
 * larger ones (a trace weighs one per SLICE_BYTES of its spans' JSON, at least one).
 */
const TRACES_PER_SLICE = 20;
const SLICE_BYTES = 4096;

export async function assembleTraces(db: Db, input: { traceIds: string[] }): Promise<AssembleTracesResult> {
  const settle = settleMs();
  // Settled by the database's clock, the one that wrote last_span_at.
  const traces = await queryRows<{ trace_id: string; last_span_at: Date; settled: boolean; api_key_id: string | null }>(
    db,
    Prisma.sql`SELECT trace_id, last_span_at, last_span_at <= now() - make_interval(secs => ${settle / 1000}::float8) AS settled, api_key_id
      FROM otlp_traces WHERE trace_id = ANY(${[...new Set(input.traceIds)]}::text[])`,
    "otlp_assembly_traces",
  );
  const early = traces.filter((t) => !t.settled);
  const settled = traces.filter((t) => t.settled);
  const readAt = new Date();
  const staged = settled.length ? await stagedSpans(db, settled.map((t) => t.trace_id)) : new Map<string, string>();
  const failed = new Map<string, Error>();
  const { runsOf, spansOf } = await mapTraces(settled, staged, failed);
  // An account forgotten since its spans were read (the forget deleted them) gets nothing back.
  const runs = await withoutForgotten(db, [...runsOf.values()].flat(), readAt);
  const actors = await keyActors(db, settled);

  /** Why a trace's runs were all left out (its agent undeclared or deleted, the ingestion's refusal). */
  const left = new Map<string, { agentId: string; reason: string; runs: number }>();
  for (const agentRuns of Map.groupBy(runs, (r) => r.agent.id).values()) {
    for (const { run, reason } of await storeAgentRuns(db, agentRuns, actors, failed)) {
      const trace = run.workflow.root_trace_id!;
      const l = left.get(trace) ?? { agentId: run.agent.id, reason, runs: 0 };
      l.runs++;
      left.set(trace, l);
    }
  }

  // Done unless a span arrived meanwhile: then the export that brought it saw a job queued, so queue one.
  const done = settled.filter((t) => !failed.has(t.trace_id));
  const marked = await markAssembled(db, done);
  const late = done.filter((t) => !marked.has(t.trace_id));
  await enqueueJobs(db, [
    ...early.map((t) => ({ kind: ASSEMBLY_JOB, payload: { trace_id: t.trace_id }, runAfter: new Date(t.last_span_at.getTime() + settle) })),
    ...late.map((t) => ({ kind: ASSEMBLY_JOB, payload: { trace_id: t.trace_id }, runAfter: new Date(Date.now() + settle) })),
  ]);
  // Traces that made no run, counted once: on their first assembly.
  const unmapped: UnmappedTrace[] = [];
  for (const [traceId, first] of marked) {
    const spans = spansOf.get(traceId) ?? [];
    if (!first || spans.length === 0) continue;
    const made = runsOf.get(traceId) ?? [];
    const out = left.get(traceId);
    if (made.length === 0) unmapped.push({ agentId: null, reason: whyNoRuns(spans), spans: spans.length, sample: sampleOf(spans) });
    else if (out && out.runs === made.length) unmapped.push({ agentId: out.agentId, reason: out.reason, spans: spans.length, sample: sampleOf(spans) });
  }
  await recordUnmapped(db, unmapped);
  return {
    assembled: [...marked.keys()],
    waiting: [...early, ...late].map((t) => t.trace_id),
    failed,
    runs: runs.filter((r) => !failed.has(r.workflow.root_trace_id!)).length,
  };
}

/**
 * The staged spans of these traces, by trace: each trace's as one JSON text (one parse, no
 * per-column conversion), parsed as the trace is mapped.
 */
async function stagedSpans(db: Db, traceIds: string[]): Promise<Map<string, string>> {
  const rows = await queryRows<{ trace_id: string; spans: string }>(
    db,
    Prisma.sql`
      SELECT trace_id, json_agg(json_build_object('traceId', trace_id, 'spanId', span_id, 'parentSpanId', parent_span_id, 'name', name,
        'startNs', start_ns::text, 'endNs', end_ns::text, 'statusCode', status_code, 'statusMessage', status_message,
        'serviceName', service_name, 'attributes', attributes, 'events', events))::text AS spans
      FROM otlp_spans WHERE trace_id = ANY(${traceIds}::text[]) GROUP BY trace_id`,
    "otlp_assembly_spans",
  );
  return new Map(rows.map((r) => [r.trace_id, r.spans]));
}

/**
 * Clears `queued` of traces whose last span is still the one read; returns those it cleared, each
 * with whether this was its first assembly.
 */
async function markAssembled(db: Db, traces: { trace_id: string; last_span_at: Date }[]): Promise<Map<string, boolean>> {
  if (traces.length === 0) return new Map();
  const rows = JSON.stringify(traces.map((t) => ({ trace_id: t.trace_id, last_span_at: t.last_span_at.toISOString() })));
  const marked = await queryRows<{ trace_id: string; first: boolean }>(
    db,
    Prisma.sql`
      UPDATE otlp_traces t SET queued = false, assembled_at = now()
      FROM jsonb_to_recordset(${rows}::jsonb) AS x(trace_id text, last_span_at timestamptz), otlp_traces was
      WHERE t.trace_id = x.trace_id AND t.last_span_at = x.last_span_at AND was.trace_id = t.trace_id
      RETURNING t.trace_id, was.assembled_at IS NULL AS first`,
    "otlp_assembly_mark",
  );
  return new Map(marked.map((r) => [r.trace_id, r.first]));
}

/**
 * Each trace's spans, parsed, and its runs; a trace whose mapping throws fails alone (its job is
 * retried), the others go on.
 */
async function mapTraces(traces: { trace_id: string }[], staged: Map<string, string>, failed: Map<string, Error>) {
  const runsOf = new Map<string, AssembledRun[]>();
  const spansOf = new Map<string, StagedSpan[]>();
  // Parsing and mapping a trace grows with its spans' JSON (several ms for the largest exports'
  // traces): a claim of 500 traces, some MiB of spans, lets other requests in between slices.
  const weigh = (t: { trace_id: string }) => Math.max(1, (staged.get(t.trace_id)?.length ?? 0) / SLICE_BYTES);
  await mapInSlices(traces, (t) => {
    try {
      const spans = JSON.parse(staged.get(t.trace_id) ?? "[]") as StagedSpan[];
      spansOf.set(t.trace_id, spans);
      runsOf.set(t.trace_id, runsOfTrace(spans));
    } catch (e) {
      failed.set(t.trace_id, e as Error);
    }
  }, TRACES_PER_SLICE, weigh);
  return { runsOf, spansOf };
}

/**
 * One agent's runs, all together; when that fails, trace by trace, so that a trace the
 * ingestion cannot take fails alone (its job retried) and the agent's other traces are stored.
 */
async function storeAgentRuns(db: Db, runs: AssembledRun[], actors: Map<string, AuditContext>, failed: Map<string, Error>): Promise<Refused[]> {
  try {
    return await storeRuns(db, runs, actors);
  } catch (e) {
    const byTrace = Map.groupBy(runs, (r) => r.workflow.root_trace_id!);
    if (byTrace.size === 1) {
      for (const trace of byTrace.keys()) failed.set(trace, e as Error);
      return [];
    }
    const refused: Refused[] = [];
    for (const [trace, own] of byTrace) {
      try {
        refused.push(...(await storeRuns(db, own, actors)));
      } catch (err) {
        failed.set(trace, err as Error);
      }
    }
    return refused;
  }
}

type Refused = { run: AssembledRun; reason: string };

/**
 * One agent's runs: the agent observed once (declared, or its toolbox grown by every tool they
 * used, as the key whose export brought the first of their traces), their runs in batches, their
 * messages in one statement. Returns the runs left out, and why.
 */
async function storeRuns(db: Db, runs: AssembledRun[], actors: Map<string, AuditContext>): Promise<Refused[]> {
  const agent = runs[0].agent;
  if (autoAgents()) {
    const by = actors.get(runs[0].workflow.root_trace_id!) ?? systemAuditContext("otlp");
    const observed = await observeAgent(db, { agentId: agent.id, name: agent.name, tools: toolsOf(runs), grow: growToolboxes(), maxTools: MAX_AUTO_TOOLS_PER_AGENT }, by);
    if (observed === "deleted") return runs.map((run) => ({ run, reason: UNMAPPED_REASON.deleted }));
  } else if ((await db.agent.count({ where: { id: agent.id } })) === 0) return runs.map((run) => ({ run, reason: UNMAPPED_REASON.undeclared }));
  const refused: Refused[] = [];
  for (let i = 0; i < runs.length; i += RUNS_PER_BATCH) {
    const results = await ingestWorkflows(db, agent.id, runs.slice(i, i + RUNS_PER_BATCH).map((r) => r.workflow));
    // 400: a run the ingestion refuses (limits) stays out, as the batch API would leave it; where, not what.
    for (const r of results)
      if (r.status === 400) refused.push({ run: runs[i + r.index], reason: UNMAPPED_REASON.refused(refusalOf(r)) });
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
  return refused;
}

/** The fields a refused run failed on: their paths, never the messages (a rule's message may quote the value). */
function refusalOf(r: { error?: { errors?: { path: string }[] } }): string {
  const paths = [...new Set((r.error?.errors ?? []).map((e) => e.path))];
  return paths.length ? `invalid ${paths.slice(0, 5).join(", ")}` : "invalid";
}

/** The tools of all the runs, first sighting of each name first. */
function toolsOf(runs: AssembledRun[]): ObservedTool[] {
  const tools = new Map<string, ObservedTool>();
  for (const r of runs) for (const t of r.tools) if (!tools.has(t.name)) tools.set(t.name, t);
  return [...tools.values()];
}

/**
 * Deletes staged traces (and their spans) that received nothing for a day, assembled or not, and
 * the counts of traces that made no runs that received none for UNMAPPED_KEEP_DAYS; returns how
 * many traces.
 */
export async function pruneStagedSpans(db: Db, now = new Date()): Promise<number> {
  await pruneUnmapped(db);
  const before = new Date(now.getTime() - STAGED_SPAN_TTL_MS);
  const [r] = await db.$queryRaw<{ n: bigint }[]>`
    WITH old AS (DELETE FROM otlp_traces WHERE last_span_at < ${before} RETURNING trace_id),
    spans AS (DELETE FROM otlp_spans s USING old WHERE s.trace_id = old.trace_id RETURNING 1)
    SELECT count(*) AS n FROM old`;
  return Number(r.n);
}
