// The agent API, one declaration per operation: who may call it, what it takes and what it
// answers. Each route file passes its declaration to `route()` (lib/api/handler.ts), which
// validates the inputs with it; /api/v1/openapi.json is generated from these declarations
// (lib/api/v1/openapi.ts) and the integration tests check every response against them
// (tests/helpers/contract-check.ts). The key of each entry is the operation's operationId.
// Problem responses every operation can give (400, 401, 403, 404, 413, 429, 503) are added by
// `repliesOf` in openapi.ts; an operation declares only its own answers and its own 409s.
import { z } from "zod";
import type { Reach } from "../../auth/key-reach";
import type { RouteOptions } from "../handler";
import { rawBytes } from "../raw-body";
import { BATCH_BODY_BYTES, INGEST_RATE_PER_KEY, SINGLE_BODY_BYTES, SKILL_UPLOAD_BYTES } from "./limits";
import * as s from "./schemas";
import * as otlp from "./otlp";
import * as ledger from "./ledger";
import * as ledgerOut from "./ledger-responses";
import * as learning from "./learning";
import * as learned from "./learning-responses";
import { personaParams, personaQuery } from "../../persona/reference";
import { qualificationBody } from "../../learning/operations/start-skill-qualification";
import { ARCHIVE_MAX_BYTES as SKILL_ARCHIVE_MAX_BYTES } from "../../learning/skills-io/archive";
import { accountParams, forgetAccountResponse, forgetQuery } from "../../accounts/schemas";
import * as exp from "../../experiments/schemas";
import * as expOut from "../../experiments/api-responses";
import * as hooks from "../../webhooks/schemas";
import * as jobs from "../../jobs/schemas";

/**
 * One documented answer: a JSON body matching `schema` (problem+json from 400 on); with
 * `mediaType` application/x-ndjson a stream of lines each matching `schema`; or, with
 * `contentType`, a file of that type (`schema` then describes nothing and is not checked).
 */
export type Reply = { description: string; schema: z.ZodType; mediaType?: typeof NDJSON; contentType?: string };

export const NDJSON = "application/x-ndjson";

export type Tag = "system" | "agents" | "workflows" | "otlp" | "learning" | "skills" | "conversations" | "personas" | "accounts" | "ledger" | "experiments" | "webhooks" | "jobs";

export type Operation = RouteOptions<z.ZodType | undefined, z.ZodObject | undefined, z.ZodObject | undefined> & {
  method: "GET" | "PUT" | "POST" | "DELETE";
  /** OpenAPI path template: `{name}` for each path parameter. */
  path: string;
  summary: string;
  /** Longer text for the OpenAPI document. */
  description?: string;
  tag: Tag;
  /** Answers and refusals (google.rpc.Status bodies, not problem+json) are encoded like the request (OTLP). */
  errors?: "otlp";
  responses: Record<number, Reply>;
};

const ok = (description: string, schema: z.ZodType): Reply => ({ description, schema });
const refused = (description: string): Reply => ({ description, schema: s.problemSchema });
const file = (description: string, contentType: string): Reply => ({ description, schema: z.unknown(), contentType });
const lines = (description: string, schema: z.ZodType): Reply => ({ description, schema, mediaType: NDJSON });
const agentDeleting = refused("the agent is being deleted: it accepts no more changes (code agent_deleting)");

/** The served document, loosely: its own shape is OpenAPI 3.1's. */
const openApiDocumentResponse = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});

const agentPath = "/api/v1/agents/{agent_id}";
const skillPath = "/api/v1/skills/{skill_id}";
const procedurePath = "/api/v1/ledger/procedures/{id}";
const experimentPath = "/api/v1/experiments/{experiment_id}";
const webhooksPath = "/api/v1/webhooks";
const webhookPath = `${webhooksPath}/{id}`;
const jobPath = "/api/v1/jobs/{job_id}";
const experimentClosed = refused("the experiment is completed or cancelled (code invalid_state), or its agent is being deleted (code agent_deleting)");
const cycleRunning = refused("a promotion cycle is already running for this agent (code conflict), or the agent is being deleted (code agent_deleting)");

// What each request names, for keys bound to a tenant, agents or an evaluator (lib/auth/key-reach.ts),
// enforced by route() from these declarations alone: `reach` reads the address (checked before the
// body is read), `reachFromBody` the parsed body, and `reachByRecord` names the path parameter
// holding the id of a record whose agent must be reached (a skill, an experiment, a run: another
// agent's answers 404 like a missing one; lib/api/v1/reach.ts). The functions are loosely typed:
// each operation's own parsed inputs, checked by its zod schemas before they run (one entry's
// shapes cannot reach a function shared by many); route()'s types check that a `reachByRecord`
// parameter is one of the operation's path parameters.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed inputs, for the reason above
type Parsed = any;
type AddressInput = { params: Parsed; query: Parsed };
type BodyInput = AddressInput & { body: Parsed };
const agentInPath = ({ params }: AddressInput): Reach => ({ agent: params.agent_id });
const agentInQuery = ({ query }: AddressInput): Reach => (query.agent_id === undefined ? {} : { agent: query.agent_id });
const scopeOf = (s: { tenant: string; agent: string }): Reach => ({ tenant: s.tenant, agent: s.agent });
const ledgerScopeInBody = ({ body }: BodyInput): Reach => scopeOf(body.scope);
const ledgerScopeInQuery = ({ query }: AddressInput): Reach => scopeOf(query);
const evaluationReach = ({ body }: BodyInput): Reach => ({ ...scopeOf(body.scope), evaluator: body.evaluator_id });
const everyAgent = (): Reach => ({ everyAgent: true });
const skillInPath = { skill: "skill_id" } as const;
const experimentInPath = { experiment: "experiment_id" } as const;
const workflowInPath = { workflow: "id" } as const;

export const v1 = {
  getHealth: {
    method: "GET", path: "/api/health", tag: "system", summary: "Liveness and database health", auth: "none",
    responses: { 200: ok("healthy", s.healthResponse), 503: ok("degraded", s.healthResponse) },
  },
  getOpenApi: {
    method: "GET", path: "/api/v1/openapi.json", tag: "system", summary: "This document", auth: "none",
    responses: { 200: ok("OpenAPI 3.1 document", openApiDocumentResponse) },
  },

  // Agents and their runs (lib/learning).
  putAgent: {
    method: "PUT", path: agentPath, tag: "agents", summary: "Create or replace an agent (audited)", auth: "any", access: "learning:write",
    params: s.agentParams, reach: agentInPath, body: s.agentPutBody,
    responses: { 200: ok("the stored agent, learning defaults filled", s.agentResponse), 409: agentDeleting },
  },
  deleteAgent: {
    method: "DELETE", path: agentPath, tag: "agents",
    summary: "Delete an agent and its runs, classes, skills, jobs, shadow records and conversations in the background (audited; audit rows stay, ledger procedures too unless include_ledger=true)",
    auth: "any", access: "learning:write", params: s.agentParams, reach: agentInPath, query: s.agentDeleteQuery, body: s.agentDeleteBody, bodyOptional: true,
    responses: {
      202: ok("the deletion started: the agent is hidden and refuses writes (409 agent_deleting) until the worker has deleted it, then it is 404", s.agentDeletionResponse),
      200: ok("the deletion was already under way (nothing new started)", s.agentDeletionResponse),
    },
  },
  getAgent: {
    method: "GET", path: agentPath, tag: "agents", summary: "Read an agent", auth: "any", access: "learning:read",
    params: s.agentParams, reach: agentInPath,
    responses: { 200: ok("the agent", s.agentResponse) },
  },
  ingestWorkflow: {
    method: "POST", path: `${agentPath}/workflows`, tag: "workflows", summary: "Store one tool-calling run (idempotent on workflow_id)",
    auth: "any", access: "runs:write", params: s.agentParams, reach: agentInPath, body: s.workflowInput, bodyErrors: { name: "workflow" }, maxBodyBytes: SINGLE_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY,
    responses: {
      201: ok("stored", s.workflowCreated),
      200: ok("the same workflow_id with an identical body was already stored (duplicate: true)", s.workflowCreated),
      409: refused("the workflow_id was stored with a different body (code conflict), or the agent is being deleted (code agent_deleting)"),
    },
  },
  ingestWorkflowBatch: {
    method: "POST", path: `${agentPath}/workflows/batch`, tag: "workflows", summary: "Store up to 1000 runs; each item succeeds or fails on its own",
    auth: "any", access: "runs:write", params: s.agentParams, reach: agentInPath, body: s.workflowBatchBody, maxBodyBytes: BATCH_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY,
    responses: { 207: ok("one result per item, in request order", s.workflowBatchResponse), 409: agentDeleting },
  },
  exportOtlpTraces: {
    method: "POST", path: "/api/v1/otlp/v1/traces", tag: "otlp", summary: "OTLP/HTTP trace export: OpenTelemetry GenAI spans become runs",
    description: otlp.OTLP_DESCRIPTION,
    auth: "apiKey", access: "runs:write", body: otlp.otlpExportBody, rawBody: otlp.otlpRawBody, maxBodyBytes: otlp.OTLP_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY,
    errors: "otlp",
    responses: { 200: ok("ExportTraceServiceResponse (protobuf or JSON like the request)", otlp.otlpExportResponse) },
  },
  searchWorkflows: {
    method: "GET", path: `${agentPath}/workflows`, tag: "workflows",
    summary: "Runs most similar to a query (runs covered by an ACTIVE skill excluded unless exclude_promoted=false)",
    auth: "any", access: "learning:read", params: s.agentParams, reach: agentInPath, query: s.workflowSearchQuery,
    responses: { 200: ok("most similar first", s.workflowSearchResponse) },
  },
  exportWorkflows: {
    method: "GET", path: `${agentPath}/workflows/export`, tag: "workflows",
    summary: "Every run of the agent matching the filters, oldest first, as streamed JSON lines (one full run per line)",
    auth: "any", access: "runs:export", params: s.agentParams, reach: agentInPath, query: s.workflowExportQuery,
    responses: { 200: lines("application/x-ndjson: one run per line, as GET /api/v1/workflows/{id} answers it", s.workflowDetail), 409: agentDeleting },
  },
  getWorkflow: {
    method: "GET", path: "/api/v1/workflows/{id}", tag: "workflows", summary: "One run by the id returned at creation", auth: "any", access: "learning:read",
    params: s.workflowParams, reachByRecord: workflowInPath,
    responses: { 200: ok("the full run", s.workflowDetail) },
  },
  listClasses: {
    method: "GET", path: `${agentPath}/classes`, tag: "learning",
    summary: "Trajectory classes, most executed first; page with limit and the returned next_cursor",
    auth: "any", access: "learning:read", params: s.agentParams, reach: agentInPath, query: s.classListQuery,
    responses: { 200: ok("one page of classes", s.classListResponse) },
  },

  // Learning engine (lib/learning): promotion cycles, skills and their review, context assembly.
  runPromotionCycle: {
    method: "POST", path: `${agentPath}/promotion-cycles`, tag: "learning", summary: "Run a promotion cycle now (audited; gates never bypassed)",
    auth: "any", access: "learning:write", params: learning.agentIdParams, reach: agentInPath,
    responses: { 200: ok("the cycle's report", learned.promotionReportResponse), 409: cycleRunning },
  },
  listPromotionCycles: {
    method: "GET", path: `${agentPath}/promotion-cycles`, tag: "learning", summary: "Promotion cycle reports, newest first",
    auth: "any", access: "learning:read", params: learning.agentIdParams, reach: agentInPath, query: learning.reportListQuery,
    responses: { 200: ok("the reports", learned.promotionReportListResponse) },
  },
  distillClass: {
    method: "POST", path: `${agentPath}/classes/{canonical_hash}/distill`, tag: "learning",
    summary: "Distill one class through the cycle's gates and validation (audited)",
    auth: "any", access: "learning:write", params: learning.classParams, reach: agentInPath, query: learning.distillQuery,
    responses: { 200: ok("the report for this class", learned.promotionReportResponse), 409: cycleRunning },
  },
  listSkills: {
    method: "GET", path: `${agentPath}/skills`, tag: "skills", summary: "The agent's skills, newest first, optionally of one status",
    auth: "any", access: "learning:read", params: learning.agentIdParams, reach: agentInPath, query: learning.skillListQuery,
    responses: { 200: ok("the skills", learned.skillListResponse) },
  },
  exportSkills: {
    method: "GET", path: `${agentPath}/skills/export`, tag: "skills",
    summary: "The agent's skills of one status (default active) as an Agent Skills zip: an imported skill's folder byte for byte (SKILL.md as imported, every bundled file, executable bits), a distilled skill's <skill-name>/SKILL.md with our fields under metadata",
    auth: "any", access: "learning:read", params: learning.agentIdParams, reach: agentInPath, query: learning.skillExportQuery,
    responses: { 200: file("application/zip of <skill-name>/ folders (names unique: imported skills keep theirs, distilled ones derive theirs from the skill names)", "application/zip") },
  },
  importSkills: {
    method: "POST", path: `${agentPath}/skills/import`, tag: "skills",
    summary: "Import Agent Skills (a zip of <skill-name>/ folders with their SKILL.md and bundled files, or one SKILL.md) as SHADOW skills at user authority, checked against the Agent Skills specification; every file kept (at most 200 files, 2 MB per file, 8 MB per skill); tool mismatches and the script scan's findings are review warnings (audited)",
    auth: "any", access: "learning:write", params: learning.agentIdParams, reach: agentInPath,
    body: rawBytes, rawBody: { media: { "application/zip": "a zip of <skill-name>/SKILL.md folders", "text/markdown": "one SKILL.md" } }, maxBodyBytes: SKILL_UPLOAD_BYTES,
    responses: {
      200: ok("per skill folder: created (with its files, scripts and review warnings), duplicate of a stored skill (the same files), or refused with the reasons", learned.skillImportResponse),
      400: refused(`a zip with a path outside its skill folder, an absolute or .. path, a path twice, a symbolic link, or over ${SKILL_ARCHIVE_MAX_BYTES / 1024 / 1024} MB (compressed or uncompressed): nothing is written`),
    },
  },
  getSkill: {
    method: "GET", path: skillPath, tag: "skills", summary: "One skill with its stats and advisory readiness", auth: "any", access: "learning:read",
    params: learning.skillParams, reachByRecord: skillInPath,
    responses: { 200: ok("the skill", learned.skillResponse) },
  },
  activateSkill: {
    method: "POST", path: `${skillPath}/activate`, tag: "skills", summary: "Activate a shadow or candidate skill (audited; explicit review decision)",
    auth: "any", access: "learning:write", params: learning.skillParams, reachByRecord: skillInPath, body: learning.activateBody, bodyOptional: true,
    responses: {
      200: ok("the active skill", learned.skillResponse),
      409: refused("the skill is not shadow or candidate, uses tools the agent no longer has, bundles scripts that confirm_scripts does not name exactly (errors: one per script, path /confirm_scripts), or the agent requires qualification and the skill's ledger procedure is not active (code invalid_state), or the agent is being deleted (code agent_deleting)"),
    },
  },
  demoteSkill: {
    method: "POST", path: `${skillPath}/demote`, tag: "skills", summary: "Demote an active skill (audited)",
    auth: "any", access: "learning:write", params: learning.skillParams, reachByRecord: skillInPath, body: learning.demoteBody,
    responses: { 200: ok("the demoted skill", learned.skillResponse), 409: refused("the skill is not active (code invalid_state), or the agent is being deleted (code agent_deleting)") },
  },
  rejectSkill: {
    method: "POST", path: `${skillPath}/reject`, tag: "skills",
    summary: "Reject a shadow or candidate skill in review (audited; the reason is recorded, never shown to the agent). Its class is distilled again only after min_executions new runs pass every gate",
    auth: "any", access: "learning:write", params: learning.skillParams, reachByRecord: skillInPath, body: learning.rejectBody,
    responses: { 200: ok("the rejected skill", learned.skillResponse), 409: refused("the skill is not shadow or candidate (code invalid_state), or the agent is being deleted (code agent_deleting)") },
  },
  startSkillQualification: {
    method: "POST", path: `${skillPath}/qualification`, tag: "skills",
    summary: "Start paired-evaluation qualification of a shadow skill in the evidence ledger (audited; admin scope, as in the console)",
    auth: "any", access: "learning:write", params: learning.skillParams, reachByRecord: skillInPath, body: qualificationBody,
    responses: {
      201: ok("the skill's new Candidate procedure record", ledgerOut.procedureRecordResponse),
      200: ok("this skill version already has its procedure in this scope: the current record (nothing written)", ledgerOut.procedureRecordResponse),
      409: refused("the skill is not shadow (code invalid_state), or the agent is being deleted (code agent_deleting)"),
    },
  },
  getSkillReadiness: {
    method: "GET", path: `${skillPath}/readiness`, tag: "skills", summary: "Advisory shadow readiness", auth: "any", access: "learning:read",
    params: learning.skillParams, reachByRecord: skillInPath,
    responses: { 200: ok("readiness and the reasons it is not met", learned.readinessResponse) },
  },
  assembleContext: {
    method: "POST", path: `${agentPath}/context`, tag: "skills", summary: "Assemble the prompt with the agent's ACTIVE skills for a query",
    auth: "apiKey", access: "context:read", params: learning.agentIdParams, reach: agentInPath, body: s.contextBody,
    responses: { 200: ok("the injected skills and the provider's messages", learned.contextResponse), 409: agentDeleting },
  },

  // Conversations and personas (lib/learning/capture/conversations, lib/persona).
  ingestConversation: {
    method: "POST", path: `${agentPath}/conversations`, tag: "conversations", summary: "Store conversation messages (idempotent on message_id)",
    auth: "any", access: "runs:write", params: s.agentParams, reach: agentInPath, body: s.conversationBody, rateLimit: INGEST_RATE_PER_KEY,
    responses: { 201: ok("counts of new and already-stored messages", s.conversationResponse), 409: agentDeleting },
  },
  getApprovedPersona: {
    method: "GET", path: "/api/v1/accounts/{user_id}/persona", tag: "personas", summary: "The account's approved persona (never a pending proposal)",
    auth: "apiKey", access: "context:read", params: personaParams, query: personaQuery, reach: agentInQuery,
    responses: { 200: ok("the approved persona and its memory reference", learned.approvedPersonaResponse) },
  },
  forgetAccount: {
    method: "DELETE", path: "/api/v1/accounts/{user_id}", tag: "accounts",
    summary: "Forget an account: its conversations and persona are deleted, its runs kept without their private fields (audited; idempotent)",
    auth: "any", access: "accounts:forget", params: accountParams, query: forgetQuery, reach: everyAgent,
    responses: { 200: ok("what was removed now (all zero when the account was already forgotten)", forgetAccountResponse) },
  },

  // Evidence ledger (lib/ledger): ids are any non-blank text up to 512 UTF-8 bytes, percent-encoded.
  // Console sessions need ADMIN for its reads: viewers do not see the ledger. Proposing needs a
  // ledger:propose key, evaluating a ledger:evaluate key (never both on one key).
  proposeProcedure: {
    method: "POST", path: "/api/v1/ledger/procedures", tag: "ledger",
    summary: "Propose an immutable procedure (identical re-proposal returns the current record)",
    auth: "apiKey", access: "ledger:propose", body: ledger.proposeBody, reachFromBody: ledgerScopeInBody,
    responses: {
      201: ok("the new Candidate record", ledgerOut.procedureRecordResponse),
      200: ok("identical proposal: the current record", ledgerOut.procedureRecordResponse),
      409: refused("the id holds a different proposal (code conflict)"),
    },
  },
  getProcedure: {
    method: "GET", path: procedurePath, tag: "ledger", summary: "A procedure record in a scope", auth: "any", access: "ledger:read",
    params: ledger.procedureParams, query: ledger.scopeQuery, reach: ledgerScopeInQuery,
    responses: { 200: ok("the record", ledgerOut.procedureRecordResponse) },
  },
  recordEvaluation: {
    method: "POST", path: `${procedurePath}/evaluations`, tag: "ledger", summary: "Record one paired evaluation (idempotent on case_id)",
    auth: "apiKey", access: "ledger:evaluate", params: ledger.procedureParams, body: ledger.evaluationBody, reachFromBody: evaluationReach,
    responses: {
      201: ok("the receipt, duplicate: false", ledgerOut.evaluationResultResponse),
      200: ok("identical re-delivery: the original receipt, duplicate: true", ledgerOut.evaluationResultResponse),
      409: refused("conflict (different evidence under the case id, evidence already claimed) or invalid_state (phase does not match state)"),
      422: refused("an evidence_ref run:<workflow id> or trace:<root trace id> names no stored run of the scope's agent (code unresolved_reference)"),
    },
  },
  getEvaluation: {
    method: "GET", path: `${procedurePath}/evaluations/{case_id}`, tag: "ledger", summary: "An evaluation receipt", auth: "any", access: "ledger:read",
    params: ledger.caseParams, query: ledger.scopeQuery, reach: ledgerScopeInQuery,
    responses: { 200: ok("the receipt", ledgerOut.receiptResponse) },
  },
  selectProcedure: {
    method: "GET", path: "/api/v1/ledger/select", tag: "ledger",
    summary: "The Active procedure with the highest bound that fits the byte budget, or null", auth: "any", access: "ledger:read",
    query: ledger.selectQuery, reach: ledgerScopeInQuery,
    responses: { 200: ok("{procedure: record | null}", ledgerOut.selectResponse) },
  },

  // Experiments (lib/experiments): the agent runs the cases, Proctor serves each arm's
  // context and scores. Found by their own id: a key bound to other agents gets 404 (reachByRecord).
  createExperiment: {
    method: "POST", path: `${agentPath}/experiments`, tag: "experiments",
    summary: "Create an experiment measuring a shadow or active skill of this agent in context arms on held-out cases (audited)",
    auth: "any", access: "experiments:manage", params: s.agentParams, reach: agentInPath, body: exp.createExperimentBody,
    responses: {
      201: ok("the new experiment (draft until its first context is served)", expOut.experimentResponse),
      400: refused("bad input: a skill of another agent, duplicate arm or case names, a baseline that is not a raw_workflows arm, an invalid regex (code validation_error)"),
      409: refused("the skill is not shadow or active (code invalid_state), or the agent is being deleted (code agent_deleting)"),
    },
  },
  getExperiment: {
    method: "GET", path: experimentPath, tag: "experiments", summary: "An experiment and its progress", auth: "any", access: "experiments:read",
    params: exp.experimentParams, reachByRecord: experimentInPath,
    responses: { 200: ok("the experiment", expOut.experimentResponse) },
  },
  getExperimentReport: {
    method: "GET", path: `${experimentPath}/report`, tag: "experiments",
    summary: "The report recomputed from the stored runs: per case and arm, aggregates, deltas from the baseline with paired bootstrap 95 % intervals, the seed's checks",
    auth: "any", access: "experiments:read", params: exp.experimentParams, reachByRecord: experimentInPath,
    responses: { 200: ok("the report", expOut.experimentReportResponse) },
  },
  listExperimentAssignments: {
    method: "GET", path: `${experimentPath}/assignments`, tag: "experiments",
    summary: "The (case, arm, repetition) assignments not yet reported, repetition by repetition and case by case, each case's arms in its seeded counterbalanced order",
    auth: "any", access: "experiments:run", params: exp.experimentParams, reachByRecord: experimentInPath, query: exp.assignmentsQuery,
    responses: { 200: ok("the next assignments (empty once the experiment is completed or cancelled)", expOut.assignmentsResponse) },
  },
  experimentContext: {
    method: "POST", path: `${experimentPath}/context`, tag: "experiments",
    summary: "Exactly one arm's context for a case: the baseline's raw workflows and no skill, the skill at user or developer authority alone, or nothing",
    auth: "any", access: "experiments:run", params: exp.experimentParams, reachByRecord: experimentInPath, body: exp.contextBody,
    responses: {
      200: ok("the arm's messages and the facts Proctor recorded of them", expOut.armContextResponse),
      400: refused("a case or arm not in the experiment, or a repetition beyond its count (code validation_error)"),
      409: experimentClosed,
    },
  },
  reportExperimentRun: {
    method: "POST", path: `${experimentPath}/runs`, tag: "experiments",
    summary: "Report the run of one (case, arm, repetition): steps, answer, tokens, LLM calls, latencies (idempotent)",
    auth: "any", access: "experiments:run", params: exp.experimentParams, reachByRecord: experimentInPath, body: exp.reportRunBody, maxBodyBytes: SINGLE_BODY_BYTES,
    responses: {
      201: ok("stored (duplicate: false)", expOut.experimentRunResponse),
      200: ok("the identical report was already stored (duplicate: true)", expOut.experimentRunResponse),
      400: refused("a case or arm not in the experiment, or a repetition beyond its count (code validation_error)"),
      409: refused("already reported with a different body (code conflict); no context served for it yet, or the experiment is completed or cancelled (code invalid_state)"),
    },
  },
  completeExperiment: {
    method: "POST", path: `${experimentPath}/complete`, tag: "experiments",
    summary: "Complete the experiment: every run reported and the seed's checks holding; each skill-arm case becomes a paired evaluation of the skill's ledger procedure, once per case content and arm mode (audited)",
    auth: "any", access: "experiments:manage", params: exp.experimentParams, reachByRecord: experimentInPath, body: exp.finishBody, bodyOptional: true,
    responses: {
      200: ok("the final report and what went into the ledger", expOut.completeResponse),
      409: refused("not running, runs missing, or a check fails (code invalid_state)"),
    },
  },
  cancelExperiment: {
    method: "POST", path: `${experimentPath}/cancel`, tag: "experiments", summary: "Cancel a draft or running experiment (audited); nothing goes to the ledger",
    auth: "any", access: "experiments:manage", params: exp.experimentParams, reachByRecord: experimentInPath, body: exp.finishBody, bodyOptional: true,
    responses: { 200: ok("the cancelled experiment", expOut.experimentResponse), 409: refused("already completed or cancelled (code invalid_state)") },
  },

  // Webhook endpoints (lib/webhooks), for infrastructure as code: the console's operations, by
  // admin keys and sessions. Endpoints belong to no agent: a key bound to some is refused (403).
  listWebhookEndpoints: {
    method: "GET", path: webhooksPath, tag: "webhooks", summary: "Every webhook endpoint, newest first (at most 500)",
    auth: "any", access: "webhooks:read", reach: everyAgent,
    responses: { 200: ok("the endpoints (never their secrets)", hooks.webhookEndpointListResponse) },
  },
  createWebhookEndpoint: {
    method: "POST", path: webhooksPath, tag: "webhooks", summary: "Add a webhook endpoint (audited); its signing secret is in this answer only",
    auth: "any", access: "webhooks:manage", reach: everyAgent, body: hooks.webhookEndpointBody,
    responses: {
      201: ok("the endpoint and its signing secret", hooks.webhookCreatedResponse),
      400: refused("bad input, or a URL the webhook URL policy refuses: a host resolving to a loopback, private, link-local or metadata address, or not resolving (code validation_error, path /url)"),
    },
  },
  updateWebhookEndpoint: {
    method: "PUT", path: webhookPath, tag: "webhooks", summary: "Replace an endpoint's URL, description, events and enabled flag (audited)",
    auth: "any", access: "webhooks:manage", reach: everyAgent, params: hooks.webhookEndpointParams, body: hooks.webhookEndpointBody,
    responses: {
      200: ok("the endpoint as stored", hooks.webhookEndpointResponse),
      400: refused("bad input, or a URL the webhook URL policy refuses (code validation_error, path /url)"),
    },
  },
  rotateWebhookSecret: {
    method: "POST", path: `${webhookPath}/rotate-secret`, tag: "webhooks", summary: "A new signing secret; the old one stops at once (audited, the secret is not)",
    auth: "any", access: "webhooks:manage", reach: everyAgent, params: hooks.webhookEndpointParams,
    responses: { 200: ok("the new signing secret, in this answer only", hooks.webhookSecretResponse) },
  },
  deleteWebhookEndpoint: {
    method: "DELETE", path: webhookPath, tag: "webhooks", summary: "Delete an endpoint and its delivery history (audited)",
    auth: "any", access: "webhooks:manage", reach: everyAgent, params: hooks.webhookEndpointParams,
    responses: { 200: ok("deleted", hooks.webhookDeletedResponse) },
  },
  listWebhookDeliveries: {
    method: "GET", path: `${webhookPath}/deliveries`, tag: "webhooks", summary: "An endpoint's deliveries, newest first (limit 1–200, default 50)",
    auth: "any", access: "webhooks:read", reach: everyAgent, params: hooks.webhookEndpointParams, query: hooks.webhookDeliveriesQuery,
    responses: { 200: ok("the deliveries with their attempt counts and last result (never a response body)", hooks.webhookDeliveryListResponse) },
  },

  // Dead jobs of every kind (lib/jobs): failed after every attempt, shown with kind, agent,
  // attempts and error class, never their payload. Jobs belong to the instance (a trace's
  // assembly has no agent yet): a key bound to agents is refused (403).
  listJobs: {
    method: "GET", path: "/api/v1/jobs", tag: "jobs", summary: `Dead jobs, newest failure first (status=dead; limit 1–${jobs.DEAD_JOB_BATCH}, default 50)`,
    auth: "any", access: "learning:read", reach: everyAgent, query: jobs.deadJobsQuery,
    responses: { 200: ok("the dead jobs (never their payload or error message)", jobs.deadJobListResponse) },
  },
  retryJob: {
    method: "POST", path: `${jobPath}/retry`, tag: "jobs", summary: "Queue a dead job again, due now, with fresh attempts (audited, with the optional reason); 404 unless it is dead",
    auth: "any", access: "learning:write", reach: everyAgent, params: jobs.jobParams, body: jobs.retryJobBody, bodyOptional: true,
    responses: { 200: ok("the job, pending again", jobs.jobRetriedResponse) },
  },
  dismissJob: {
    method: "POST", path: `${jobPath}/dismiss`, tag: "jobs", summary: "Delete a dead job for good (audited with the required reason): it will never run; 404 unless it is dead",
    auth: "any", access: "learning:write", reach: everyAgent, params: jobs.jobParams, body: jobs.dismissJobBody,
    responses: { 200: ok("the job as it was, dismissed", jobs.jobDismissedResponse) },
  },
} satisfies Record<string, Operation>;
