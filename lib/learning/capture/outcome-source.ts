// How a run's outcome was decided, in words for the console (the rules in order: ./outcome.ts).
const LABELS: Record<string, string> = {
  EXECUTION: "execution error",
  REPORTED: "reported by the agent",
  RULE: "outcome rule",
  STEP_ERROR: "last step's error",
  DEFAULT: "default (nothing said otherwise)",
};

export const outcomeSourceLabel = (source: string) => LABELS[source] ?? source.toLowerCase();
