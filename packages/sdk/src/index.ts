export { Proctor, type ProctorOptions } from "./client.js";
export { ProctorError, type Problem } from "./errors.js";
export type { ExperimentHandler, ExperimentOutcome, ExperimentRunSummary, ExperimentTask, Experiments } from "./experiments.js";
export type { FailedBatch, FlushReport, RunResult } from "./runs.js";
export type { ChatMessage, SkillsContext, SkillsRequest } from "./skills.js";
export type { Agent, AgentDefinition, BatchItemResult, Experiment, ExperimentCompletion, ExperimentContext, ExperimentCreate, ExperimentReport, ExperimentRunReport, Memory, Provider, Run } from "./types.js";
export type { components, operations, paths } from "./openapi.js";
