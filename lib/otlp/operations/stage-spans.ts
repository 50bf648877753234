// Stage the spans of one OTLP export (POST /api/v1/otlp/v1/traces): one statement inserts the
// new spans (a re-exported span is the row already there), marks their traces, and queues an
// assembly job for each trace that now holds run-making spans and had none queued; the job
// (./assemble-traces.ts) waits until the trace settles. Like run ingestion, not audited: the
// runs it leads to are the record.
import { Prisma } from "../../db/generated/client";
import type { Db } from "../../db/prisma";
import type { StagedSpan } from "../spans";
import { agentOf, isInvocation, isToolCall } from "../conventions";
import { ASSEMBLY_JOB, autoAgents, settleMs } from "../config";

export type StageSpansInput = {
  spans: StagedSpan[];
  /** Whether the exporting key may send runs of this agent (a key bound to agents). */
  reaches: (agentId: string) => boolean;
};

export type StageSpansResult = { accepted: number; stored: number; rejected: number; reasons: string[] };

export async function stageSpans(db: Db, input: StageSpansInput): Promise<StageSpansResult> {
  const reasons = new Map<string, number>();
  const refuse = (why: string) => reasons.set(why, (reasons.get(why) ?? 0) + 1);
  const known = autoAgents() ? null : await declaredAgents(db, input.spans);
  const kept = input.spans.filter((s) => {
    // Spans that make runs: their agent must be one the key reaches (and, without auto agents, declared).
    const agent = isInvocation(s) || s.parentSpanId === null ? agentOf(s) : null;
    if (agent && !input.reaches(agent.id)) return void refuse(`the API key is not bound to agent '${agent.id}'`);
    if (agent && known && isInvocation(s) && !known.has(agent.id)) return void refuse(`agent '${agent.id}' is not declared (PROCTOR_OTLP_AUTO_AGENTS=0)`);
    return true;
  });
  const stored = kept.length ? await insertSpans(db, kept) : 0;
  const rejected = input.spans.length - kept.length;
  return { accepted: kept.length, stored, rejected, reasons: [...reasons].map(([why, n]) => `${n} span${n === 1 ? "" : "s"}: ${why}`) };
}

async function declaredAgents(db: Db, spans: StagedSpan[]): Promise<Set<string>> {
  const ids = [...new Set(spans.filter(isInvocation).flatMap((s) => agentOf(s)?.id ?? []))];
  if (ids.length === 0) return new Set();
  return new Set((await db.agent.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((a) => a.id));
}

async function insertSpans(db: Db, spans: StagedSpan[]): Promise<number> {
  const rows = spans.map((s) => ({
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    start_ns: s.startNs,
    end_ns: s.endNs,
    status_code: s.statusCode,
    status_message: s.statusMessage,
    service_name: s.serviceName,
    attributes: s.attributes,
    events: s.events,
    makes_runs: isInvocation(s) || isToolCall(s),
  }));
  // Rows in key order so that concurrent exports lock traces in one order. `prev` reads whether a
  // job was queued before this statement (all of its parts see one snapshot).
  const [r] = await db.$queryRaw<{ stored: bigint }[]>(Prisma.sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(trace_id text, span_id text, parent_span_id text, name text,
        start_ns bigint, end_ns bigint, status_code int, status_message text, service_name text, attributes jsonb, events jsonb, makes_runs boolean)
    ), stored AS (
      INSERT INTO otlp_spans (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, status_message, service_name, attributes, events)
      SELECT DISTINCT ON (trace_id, span_id) trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, status_message, service_name, attributes, events
      FROM input ORDER BY trace_id, span_id
      ON CONFLICT (trace_id, span_id) DO NOTHING
      RETURNING trace_id, span_id
    ), touched AS (
      SELECT i.trace_id, bool_or(i.makes_runs) AS makes_runs FROM stored JOIN input i USING (trace_id, span_id) GROUP BY i.trace_id
    ), prev AS (
      SELECT t.trace_id, t.queued FROM otlp_traces t JOIN touched USING (trace_id) ORDER BY t.trace_id FOR UPDATE OF t
    ), traces AS (
      INSERT INTO otlp_traces AS t (trace_id, makes_runs, queued, last_span_at)
      SELECT trace_id, makes_runs, makes_runs, now() FROM touched ORDER BY trace_id
      ON CONFLICT (trace_id) DO UPDATE SET last_span_at = now(), makes_runs = t.makes_runs OR EXCLUDED.makes_runs,
        queued = t.queued OR t.makes_runs OR EXCLUDED.makes_runs
      RETURNING t.trace_id, t.queued
    ), queued AS (
      INSERT INTO jobs (kind, payload, run_after)
      SELECT ${ASSEMBLY_JOB}, jsonb_build_object('trace_id', traces.trace_id), now() + make_interval(secs => ${settleMs() / 1000}::float8)
      FROM traces LEFT JOIN prev USING (trace_id)
      WHERE traces.queued AND NOT coalesce(prev.queued, false)
      RETURNING 1
    )
    SELECT count(*) AS stored FROM stored`);
  return Number(r.stored);
}
