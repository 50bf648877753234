// Every state change of experiments. Creating, completing and cancelling are audited admin
// decisions; serving an arm's context and reporting a run are the agent's run traffic.
export { createExperiment, type CreateExperimentInput } from "./create-experiment";
export { serveArmContext, type ServeArmContextInput } from "./serve-arm-context";
export { reportExperimentRun, type ReportExperimentRunInput } from "./report-experiment-run";
export { completeExperiment, type FinishExperimentInput } from "./complete-experiment";
export { cancelExperiment } from "./cancel-experiment";
