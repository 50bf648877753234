// OTLP trace ingestion's state changes: staging an export, assembling settled traces, pruning.
export { stageOtlpExport, type ExportInput } from "./stage-export";
export { stageSpans, type StageSpansInput, type StageSpansResult } from "./stage-spans";
export { assembleTraces, pruneStagedSpans, type AssembleTracesResult } from "./assemble-traces";
