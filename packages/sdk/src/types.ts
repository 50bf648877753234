// Names for the generated wire types (./openapi.ts) the SDK's methods take and return.
import type { operations } from "./openapi.js";

type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type JsonReply<Op, Status extends number> = Op extends { responses: { [S in Status]: { content: { "application/json": infer R } } } } ? R : never;

/** An agent's definition: name, toolbox, learning configuration, outcome rule. */
export type AgentDefinition = JsonBody<operations["putAgent"]>;
export type Agent = JsonReply<operations["putAgent"], 200>;
/** One tool-calling run, as the agent API stores it. */
export type Run = JsonBody<operations["ingestWorkflow"]>;
/** The console's answer for one run of a batch (201 stored, 200 duplicate, 400/409 refused). */
export type BatchItemResult = JsonReply<operations["ingestWorkflowBatch"], 207>["results"][number];
export type ContextRequest = JsonBody<operations["assembleContext"]>;
export type ContextResponse = JsonReply<operations["assembleContext"], 200>;
export type Provider = NonNullable<ContextRequest["provider"]>;
export type Memory = NonNullable<ContextRequest["memories"]>[number];
export type ExperimentCreate = JsonBody<operations["createExperiment"]>;
export type Experiment = JsonReply<operations["createExperiment"], 201>;
export type ExperimentContext = JsonReply<operations["experimentContext"], 200>;
export type ExperimentRunReport = JsonBody<operations["reportExperimentRun"]>;
export type ExperimentReport = JsonReply<operations["getExperimentReport"], 200>;
export type ExperimentCompletion = JsonReply<operations["completeExperiment"], 200>;
