// The source runs a skill is distilled from, as the distiller, the validation gate and the
// judge see them: query, outcome and the tool steps in identity order.
import { canonicalSignature, errorClass, orderSteps, parseJsonText, type StepLike } from "../capture/canonical";

export type SampleStep = { tool: string; arguments: unknown; result: unknown; error: unknown };
export type SampleRun = { workflowId: string; query: string; outcome: "success" | "failure"; steps: SampleStep[] };

export function toSampleRun(row: { workflowId: string; query: string; outcome: string; steps: unknown }): SampleRun {
  const raw = Array.isArray(row.steps) ? (row.steps as StepLike[]) : [];
  const steps = orderSteps(raw).map((s) => {
    const step = (s && typeof s === "object" ? s : {}) as Record<string, unknown>;
    return {
      tool: typeof step.tool === "string" ? step.tool.trim() : "",
      arguments: parseJsonText(step.arguments),
      result: step.result,
      error: step.error ?? null,
    };
  });
  return { workflowId: row.workflowId, query: row.query, outcome: row.outcome.toLowerCase() === "success" ? "success" : "failure", steps };
}

/**
 * The tools a failed run failed on: units still errored after retries; when none errored (a
 * business-outcome failure), the last tool called.
 */
export function failingTools(run: SampleRun): string[] {
  const units = canonicalSignature(run.steps);
  const errored = units.filter((u) => u.errored).map((u) => u.tool);
  if (errored.length) return [...new Set(errored)];
  const last = units[units.length - 1];
  return last ? [last.tool] : [];
}

/** The error type of a step (never its message, which may quote private values). */
export function stepErrorType(step: SampleStep): string | null {
  return errorClass(step.error);
}

/** One way the class's runs failed: a tool, the error types it failed with (none: a failed outcome check), in how many runs. */
export type FailureMode = { tool: string; errorTypes: string[]; runs: number };

/** The failure modes of failed runs, by failing tool in order of appearance (the distiller's and the class page's). */
export function observedFailureModes(failures: SampleRun[]): FailureMode[] {
  const byTool = new Map<string, { runs: number; types: Set<string> }>();
  for (const run of failures) {
    for (const tool of failingTools(run)) {
      const entry = byTool.get(tool) ?? { runs: 0, types: new Set<string>() };
      entry.runs++;
      for (const s of run.steps) {
        const t = s.tool === tool ? stepErrorType(s) : null;
        if (t) entry.types.add(t);
      }
      byTool.set(tool, entry);
    }
  }
  return [...byTool.entries()].map(([tool, e]) => ({ tool, errorTypes: [...e.types], runs: e.runs }));
}
