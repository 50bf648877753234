// OTLP trace ingestion's state changes: staging an export, assembling a settled trace, pruning.
export { stageSpans, type StageSpansInput, type StageSpansResult } from "./stage-spans";
export { assembleTrace, pruneStagedSpans } from "./assemble-trace";
