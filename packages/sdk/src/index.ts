export { Proctor, type ProctorOptions } from "./client.js";
export { ProctorError, type Problem } from "./errors.js";
export type { FailedBatch, FlushReport, RunResult } from "./runs.js";
export type { ChatMessage, SkillsContext, SkillsRequest } from "./skills.js";
export type { Agent, AgentDefinition, BatchItemResult, Memory, Provider, Run } from "./types.js";
export type { components, operations, paths } from "./openapi.js";
