// The worker's part of OTLP ingestion, registered when the worker's process imports this module
// (scripts/start.ts, scripts/worker.ts): trace assembly, many settled traces per claim, and
// hourly pruning of expired staged spans.
import { registerBatchJobHandler, registerPeriodicTask } from "../jobs/runtime";
import { assembleTraces, pruneStagedSpans } from "./operations/assemble-traces";
import { ASSEMBLY_BATCH, ASSEMBLY_JOB } from "./config";

registerBatchJobHandler(ASSEMBLY_JOB, ASSEMBLY_BATCH, async (database, jobs) => {
  const traceOf = (payload: unknown) => (payload as { trace_id?: unknown })?.trace_id;
  const traceIds = jobs.map((j) => traceOf(j.payload)).filter((t): t is string => typeof t === "string");
  const { failed } = await assembleTraces(database, { traceIds });
  return new Map(jobs.flatMap((j) => (failed.has(traceOf(j.payload) as string) ? [[j.id, failed.get(traceOf(j.payload) as string)!] as const] : [])));
});

registerPeriodicTask("otlp staged spans", (database) => pruneStagedSpans(database));
