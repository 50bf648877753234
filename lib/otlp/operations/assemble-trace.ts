// Assemble a staged trace's runs (the worker's otlp_assembly job, queued by ./stage-spans.ts):
// once the trace has received no new span for the settle time, its spans become runs
// (../map.ts) that enter through the batch API's ingestion (outcome rules, dedup, learning) and
// conversation messages. Runs are keyed by workflow_id otel:<trace>:<span>, so assembling a
// trace again (a retried job, spans re-exported or late) never makes a second run: an identical
// run is a duplicate, a different one (a late span) leaves the stored run as it was.
import type { Db } from "../../db/prisma";
import { enqueueJob } from "../../jobs/queue";
import { systemAuditContext } from "../../audit/record";
import { observeAgent, recordConversation, recordWorkflowBatch } from "../../learning/operations";
import { runsOfTrace, type AssembledRun } from "../map";
import { ASSEMBLY_JOB, autoAgents, settleMs, STAGED_SPAN_TTL_MS } from "../config";
import type { StagedSpan } from "../spans";

export type AssembleTraceResult = { status: "waiting" | "assembled" | "gone"; runs: number };

export async function assembleTrace(db: Db, input: { traceId: string }): Promise<AssembleTraceResult> {
  const settle = settleMs();
  const trace = await db.otlpTrace.findUnique({ where: { traceId: input.traceId } });
  if (!trace) return { status: "gone", runs: 0 };
  const quietSince = Date.now() - trace.lastSpanAt.getTime();
  if (quietSince < settle) {
    await enqueueJob(db, { kind: ASSEMBLY_JOB, payload: { trace_id: input.traceId }, runAfter: new Date(trace.lastSpanAt.getTime() + settle) });
    return { status: "waiting", runs: 0 };
  }
  const rows = await db.otlpSpan.findMany({ where: { traceId: input.traceId } });
  const runs = runsOfTrace(rows.map(stagedOf));
  for (const run of runs) await storeRun(db, run);
  // Done unless a span arrived meanwhile: then the export that brought it saw a job queued, so queue one.
  const settled = await db.otlpTrace.updateMany({
    where: { traceId: input.traceId, lastSpanAt: trace.lastSpanAt },
    data: { queued: false, assembledAt: new Date() },
  });
  if (settled.count === 0) await enqueueJob(db, { kind: ASSEMBLY_JOB, payload: { trace_id: input.traceId }, runAfter: new Date(Date.now() + settle) });
  return { status: "assembled", runs: runs.length };
}

async function storeRun(db: Db, run: AssembledRun) {
  const audit = systemAuditContext("otlp");
  if (autoAgents()) await observeAgent(db, { agentId: run.agent.id, name: run.agent.name, tools: run.tools }, audit);
  else if ((await db.agent.count({ where: { id: run.agent.id } })) === 0) return;
  const [result] = await recordWorkflowBatch(db, run.agent.id, [run.workflow]);
  // 400: a run the ingestion refuses (limits) stays out, as the batch API would leave it.
  if (result.status === 400) console.warn(`otlp: run ${run.workflow.workflow_id} refused by validation`);
  const { user_id, thread_id, root_trace_id } = run.workflow;
  if (user_id && thread_id && run.messages.length > 0) {
    for (let i = 0; i < run.messages.length; i += 1000) {
      await recordConversation(db, run.agent.id, { user_id, thread_id, root_trace_id, messages: run.messages.slice(i, i + 1000) });
    }
  }
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
