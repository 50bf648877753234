// OTLP trace ingestion's state changes: staging an export, assembling settled traces, pruning.
export { stageOtlpExport } from "./receive-export";
export { stageSpans, type StageSpansInput, type StageSpansResult } from "./stage-spans";
export { assembleTraces, pruneStagedSpans, type AssembleTracesResult } from "./assemble-traces";
