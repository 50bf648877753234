// The worker's part of OTLP ingestion, registered when the worker's process imports this module
// (scripts/start.ts, scripts/worker.ts): trace assembly, and hourly pruning of expired staged spans.
import { registerJobHandler, registerPeriodicTask } from "../jobs/runtime";
import { assembleTrace, pruneStagedSpans } from "./operations/assemble-trace";
import { ASSEMBLY_JOB } from "./config";

registerJobHandler(ASSEMBLY_JOB, async (database, payload) => {
  const traceId = (payload as { trace_id?: unknown })?.trace_id;
  if (typeof traceId === "string") await assembleTrace(database, { traceId });
});

registerPeriodicTask("otlp staged spans", (database) => pruneStagedSpans(database));
