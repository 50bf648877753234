// Stage the spans of one OTLP export (POST /api/v1/otlp/v1/traces): one statement inserts the
// new spans (a re-exported span is the row already there), marks their traces, and queues an
// assembly job for each trace that now holds spans of a convention Proctor reads and had none
// queued; the job (./assemble-traces.ts) waits until the trace settles. Like run ingestion, not
// audited: the runs it leads to are the record.
//
// Nothing is dropped silently. Spans are refused, counted per reason in the export's answer
// (partialSuccess) and in one log line per export, when the decoder found them unusable, when
// they are dated more than five minutes ahead of their receipt (learning/capture/live-time.ts),
// when they make runs for an agent the key is not bound to (or, without auto agents, not declared),
// and when none of their trace's spans, in this export or staged before, is in a convention
// Proctor reads: such a trace could never make a run. Those traces are also counted in
// otlp_unmapped_traces (../unmapped.ts) by the same statement, for the console. A trace's spans
// of other conventions arrive before its own spans only as their descendants (a span ends
// after its children and exporters send spans as they end), and a span of no convention says
// nothing to the mapping, so refusing those loses nothing.
//
// The statement goes through the plain pg pool (queryRows, prepared once per connection): through
// Prisma the export's rows (a few hundred KB) crossed its query compiler on every export
// (`npm run bench:otlp`, docs/benchmarks.md#otlp).
import { Prisma } from "../../db/generated/client";
import { queryRows, type Db } from "../../db/prisma";
import { countedReasons, type StagedSpan } from "../spans";
import { agentOf, conventionOf, isInvocation } from "../conventions";
import { sampleOf, upsertUnmappedSql, UNMAPPED_REASON } from "../unmapped";
import { ASSEMBLY_JOB, autoAgents, settleMs } from "../config";
import { AHEAD_OF_RECEIPT, withinReceipt } from "../../learning/capture/live-time";

export type StageSpansInput = {
  spans: StagedSpan[];
  /** What the decoder refused: how many spans, and why (`<n> spans: <why>` each). */
  decoded?: { rejected: number; reasons: string[] };
  /** Whether the exporting key may send runs of this agent (a key bound to agents). */
  reaches: (agentId: string) => boolean;
  /** The exporting key: the actor of what its traces' assembly declares. */
  apiKeyId: string | null;
};

export type StageSpansResult = {
  /** Spans newly stored (a re-exported span is not). */
  stored: number;
  /** Spans refused, by the decoder and here. */
  rejected: number;
  /** Why, counted per reason: the export answer's partialSuccess.errorMessage. */
  errorMessage: string;
};

export async function stageSpans(db: Db, input: StageSpansInput): Promise<StageSpansResult> {
  const reasons = new Map<string, number>();
  const refuse = (why: string, n = 1) => reasons.set(why, (reasons.get(why) ?? 0) + n);
  const known = autoAgents() ? null : await declaredAgents(db, input.spans);
  const deleted = await deletedAgents(db, input.spans);
  const receivedAt = Date.now();
  const kept = input.spans.filter((s) => {
    // A run's and its messages' times come from its spans': none may be dated ahead of receipt.
    if (!withinReceipt(Number(s.startNs) / 1e6, receivedAt) || !withinReceipt(Number(s.endNs) / 1e6, receivedAt)) return void refuse(`the span's time ${AHEAD_OF_RECEIPT}`);
    // Spans that make runs: their agent must be one the key reaches, not deleted (and, without auto agents, declared).
    const agent = isInvocation(s) || s.parentSpanId === null ? agentOf(s) : null;
    if (agent && !input.reaches(agent.id)) return void refuse(`the API key is not bound to agent '${agent.id}'`);
    if (agent && deleted.has(agent.id)) return void refuse(`agent '${agent.id}' was deleted (an admin declares it again to receive its runs)`);
    if (agent && known && isInvocation(s) && !known.has(agent.id)) return void refuse(`agent '${agent.id}' is not declared (PROCTOR_OTLP_AUTO_AGENTS=0)`);
    return true;
  });
  const staged = kept.length ? await insertSpans(db, kept, input.apiKeyId) : { stored: 0, unknown: 0 };
  if (staged.unknown) refuse(UNMAPPED_REASON.noConvention, staged.unknown);
  const rejected = (input.decoded?.rejected ?? 0) + input.spans.length - kept.length + staged.unknown;
  const errorMessage = [...(input.decoded?.reasons ?? []), ...countedReasons(reasons)].join("; ");
  if (rejected > 0) console.warn(`otlp: refused ${rejected} of ${(input.decoded?.rejected ?? 0) + input.spans.length} spans of an export: ${errorMessage}`);
  return { stored: staged.stored, rejected, errorMessage };
}

async function declaredAgents(db: Db, spans: StagedSpan[]): Promise<Set<string>> {
  const ids = [...new Set(spans.filter(isInvocation).flatMap((s) => agentOf(s)?.id ?? []))];
  if (ids.length === 0) return new Set();
  return new Set((await db.agent.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((a) => a.id));
}

/** The agents these spans' runs would belong to whose deletion started or finished (agent_tombstones). */
async function deletedAgents(db: Db, spans: StagedSpan[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const s of spans) if (isInvocation(s) || s.parentSpanId === null) { const a = agentOf(s); if (a) ids.add(a.id); }
  if (ids.size === 0) return ids;
  const rows = await queryRows<{ agent_id: string }>(db, Prisma.sql`SELECT agent_id FROM agent_tombstones WHERE agent_id = ANY(${[...ids]}::text[])`, "otlp_stage_tombstones");
  return new Set(rows.map((r) => r.agent_id));
}

/**
 * The traces of these spans that hold a span of a known convention, and the others (refused
 * unless staged before with one), each with its span count and a sample.
 */
function tracesOf(spans: StagedSpan[]) {
  const others = new Map<string, StagedSpan[]>();
  const known = new Set<string>();
  for (const s of spans) {
    if (conventionOf(s) !== null) known.add(s.traceId);
    else (others.get(s.traceId) ?? others.set(s.traceId, []).get(s.traceId)!).push(s);
  }
  const unknown = [...others].flatMap(([traceId, own]) => {
    if (known.has(traceId)) return [];
    const sample = sampleOf(own);
    return [{ trace_id: traceId, spans: own.length, sample_span_name: sample.name, sample_attribute_keys: sample.keys }];
  });
  return { known: [...known], unknown };
}

async function insertSpans(db: Db, spans: StagedSpan[], apiKeyId: string | null): Promise<{ stored: number; unknown: number }> {
  const { known, unknown } = tracesOf(spans);
  // Rows in key order so that concurrent exports lock traces in one order. `prev` reads whether a
  // job was queued before this statement, and `refused` whether a trace without a known span
  // here was staged with one before (all of the statement's parts see one snapshot; `prev` locked
  // its rows once, which skipped those the upsert had already updated, and so queued a second job
  // for every trace split across exports).
  const [r] = await queryRows<{ stored: number; unknown: number }>(
    db,
    Prisma.sql`
    WITH input AS (
      SELECT "traceId" AS trace_id, "spanId" AS span_id, "parentSpanId" AS parent_span_id, name, "startNs" AS start_ns, "endNs" AS end_ns,
        "statusCode" AS status_code, "statusMessage" AS status_message, "serviceName" AS service_name, attributes, events
      FROM jsonb_to_recordset(${JSON.stringify(spans)}::jsonb) AS x("traceId" text, "spanId" text, "parentSpanId" text, name text, "startNs" bigint,
        "endNs" bigint, "statusCode" int, "statusMessage" text, "serviceName" text, attributes jsonb, events jsonb)
    ), unknown AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(unknown)}::jsonb) AS u(trace_id text, spans int, sample_span_name text, sample_attribute_keys text[])
    ), refused AS (
      SELECT u.* FROM unknown u WHERE NOT EXISTS (SELECT 1 FROM otlp_traces t WHERE t.trace_id = u.trace_id AND t.known)
    ), stored AS (
      INSERT INTO otlp_spans (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, status_message, service_name, attributes, events)
      SELECT DISTINCT ON (trace_id, span_id) trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, status_message, service_name, attributes, events
      FROM input WHERE NOT EXISTS (SELECT 1 FROM refused WHERE refused.trace_id = input.trace_id) ORDER BY trace_id, span_id
      ON CONFLICT (trace_id, span_id) DO NOTHING
      RETURNING trace_id, span_id
    ), touched AS (
      SELECT DISTINCT trace_id, trace_id = ANY(${known}::text[]) AS known FROM stored
    ), prev AS (
      SELECT t.trace_id, t.queued FROM otlp_traces t JOIN touched USING (trace_id)
    ), traces AS (
      INSERT INTO otlp_traces AS t (trace_id, known, queued, last_span_at, api_key_id)
      SELECT trace_id, known, known, now(), ${apiKeyId}::text FROM touched ORDER BY trace_id
      ON CONFLICT (trace_id) DO UPDATE SET last_span_at = now(), known = t.known OR EXCLUDED.known,
        queued = t.queued OR t.known OR EXCLUDED.known
      RETURNING t.trace_id, t.queued
    ), queued AS (
      INSERT INTO jobs (kind, payload, run_after)
      SELECT ${ASSEMBLY_JOB}, jsonb_build_object('trace_id', traces.trace_id), now() + make_interval(secs => ${settleMs() / 1000}::float8)
      FROM traces LEFT JOIN prev USING (trace_id)
      WHERE traces.queued AND NOT coalesce(prev.queued, false)
      RETURNING 1
    ), unmapped AS (
      ${upsertUnmappedSql(Prisma.sql`
        SELECT NULL::text, ${UNMAPPED_REASON.noConvention}::text, c.traces, c.spans, s.sample_span_name, s.sample_attribute_keys
        FROM (SELECT count(*) AS traces, sum(spans) AS spans FROM refused) c, (SELECT * FROM refused ORDER BY trace_id LIMIT 1) s`)}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM stored)::int AS stored, (SELECT coalesce(sum(spans), 0) FROM refused)::int AS unknown`,
    "otlp_stage_spans",
  );
  return r;
}
