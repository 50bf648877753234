// Registers the shadow evaluation handler with the worker runtime (imported by ../jobs.ts).
// A failure is reported by error kind and code only: the message of a database or embedder
// error may quote the run's query or a skill's text, and it ends up in logs and jobs.last_error.
import { registerJobHandler } from "../../jobs/runtime";
import { evaluateShadowRun } from "./evaluate";
import { SHADOW_EVALUATION_JOB } from "./enqueue";
import { agentBeingDeleted } from "../agents/writable";

export class ShadowEvaluationError extends Error {
  override name = "ShadowEvaluationError";
}

registerJobHandler(SHADOW_EVALUATION_JOB, async (database, payload, agentId) => {
  const runId = (payload as { run_id?: unknown } | null)?.run_id;
  if (typeof runId !== "string") return;
  // An agent being deleted is evaluated no more: its deletion removes the run and this job.
  if (agentId && (await agentBeingDeleted(database, agentId))) return;
  try {
    await evaluateShadowRun(database, runId);
  } catch (e) {
    const err = e as { name?: string; code?: string };
    throw new ShadowEvaluationError(`run ${runId}: ${err?.name ?? "error"}${err?.code ? ` (${err.code})` : ""}`);
  }
});
