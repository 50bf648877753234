// The OpenAPI 3.1 document of the agent API, generated from the same zod schemas the routes
// validate with. A route added under /api/v1 adds its operation to `operations`
// (tests/unit/openapi-routes.test.ts fails otherwise).
import { z } from "zod";
import { SINGLE_BODY_BYTES, BATCH_BODY_BYTES } from "./limits";
import * as s from "./schemas";
import * as ledger from "./ledger";
import * as learning from "./learning";
import * as learned from "../../learning/api-responses";
import { personaParams, personaQuery } from "../../persona/reference";

type Access = "none" | "ingest" | "admin";

export type Operation = {
  method: "get" | "put" | "post";
  path: string;
  summary: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** An absent body means `{}`. */
  bodyOptional?: true;
  /** Agents only: console sessions are not accepted. */
  apiKeyOnly?: true;
  maxBodyBytes?: number;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
};

const agentPath = "/api/v1/agents/{agent_id}";
const skillPath = "/api/v1/skills/{skill_id}";

export const operations: Operation[] = [
  { method: "get", path: "/api/health", summary: "Liveness and database health", access: "none",
    responses: { 200: { description: "healthy", schema: s.healthResponse }, 503: { description: "degraded", schema: s.healthResponse } } },
  { method: "get", path: "/api/v1/openapi.json", summary: "This document", access: "none",
    responses: { 200: { description: "OpenAPI 3.1 document" } } },
  { method: "put", path: agentPath, summary: "Create or replace an agent (audited)", access: "admin",
    params: s.agentParams, body: s.agentPutBody,
    responses: { 200: { description: "the stored agent, learning defaults filled", schema: s.agentResponse } } },
  { method: "get", path: agentPath, summary: "Read an agent", access: "ingest", params: s.agentParams,
    responses: { 200: { description: "the agent", schema: s.agentResponse } } },
  { method: "post", path: `${agentPath}/workflows`, summary: "Store one tool-calling run (idempotent on workflow_id)", access: "ingest",
    params: s.agentParams, body: s.workflowInput,
    responses: {
      201: { description: "stored", schema: s.workflowCreated },
      200: { description: "the same workflow_id with an identical body was already stored (duplicate: true)", schema: s.workflowCreated },
      409: { description: "the workflow_id was stored with a different body (code conflict)" },
    } },
  { method: "post", path: `${agentPath}/workflows/batch`, summary: "Store up to 1000 runs; each item succeeds or fails on its own", access: "ingest",
    params: s.agentParams, body: s.workflowBatchBody, maxBodyBytes: BATCH_BODY_BYTES,
    responses: { 207: { description: "one result per item, in request order", schema: s.workflowBatchResponse } } },
  { method: "get", path: `${agentPath}/workflows`, summary: "Runs most similar to a query (runs covered by an ACTIVE skill excluded unless exclude_promoted=false)", access: "ingest",
    params: s.agentParams, query: s.workflowSearchQuery,
    responses: { 200: { description: "most similar first", schema: s.workflowSearchResponse } } },
  { method: "get", path: "/api/v1/workflows/{id}", summary: "One run by the id returned at creation", access: "ingest",
    params: s.workflowParams, responses: { 200: { description: "the full run", schema: s.workflowDetail } } },
  { method: "get", path: `${agentPath}/classes`, summary: "Trajectory classes, most executed first; page with limit and the returned next_cursor", access: "ingest",
    params: s.agentParams, query: s.classListQuery,
    responses: { 200: { description: "one page of classes", schema: s.classListResponse } } },
  // Learning engine (lib/learning): promotion cycles, skills and their review, context assembly.
  { method: "post", path: `${agentPath}/promotion-cycles`, summary: "Run a promotion cycle now (audited; gates never bypassed)", access: "admin",
    params: learning.agentIdParams,
    responses: { 200: { description: "the cycle's report", schema: learned.promotionReportResponse }, 409: { description: "a cycle is already running for this agent (code conflict)" } } },
  { method: "get", path: `${agentPath}/promotion-cycles`, summary: "Promotion cycle reports, newest first", access: "ingest",
    params: learning.agentIdParams, query: learning.reportListQuery,
    responses: { 200: { description: "the reports", schema: learned.promotionReportListResponse } } },
  { method: "post", path: `${agentPath}/classes/{canonical_hash}/distill`, summary: "Distill one class through the cycle's gates and validation (audited)", access: "admin",
    params: learning.classParams, query: learning.distillQuery,
    responses: { 200: { description: "the report for this class", schema: learned.promotionReportResponse }, 409: { description: "a cycle is already running for this agent (code conflict)" } } },
  { method: "get", path: `${agentPath}/skills`, summary: "The agent's skills, newest first, optionally of one status", access: "ingest",
    params: learning.agentIdParams, query: learning.skillListQuery,
    responses: { 200: { description: "the skills", schema: learned.skillListResponse } } },
  { method: "get", path: skillPath, summary: "One skill with its stats and advisory readiness", access: "ingest",
    params: learning.skillParams, responses: { 200: { description: "the skill", schema: learned.skillResponse } } },
  { method: "post", path: `${skillPath}/activate`, summary: "Activate a shadow or candidate skill (audited; explicit review decision)", access: "admin",
    params: learning.skillParams, body: learning.activateBody, bodyOptional: true,
    responses: { 200: { description: "the active skill", schema: learned.skillResponse }, 409: { description: "the skill is not shadow or candidate (code invalid_state)" } } },
  { method: "post", path: `${skillPath}/demote`, summary: "Demote an active skill (audited)", access: "admin",
    params: learning.skillParams, body: learning.demoteBody,
    responses: { 200: { description: "the demoted skill", schema: learned.skillResponse }, 409: { description: "the skill is not active (code invalid_state)" } } },
  { method: "get", path: `${skillPath}/readiness`, summary: "Advisory shadow readiness", access: "ingest",
    params: learning.skillParams, responses: { 200: { description: "readiness and the reasons it is not met", schema: learned.readinessResponse } } },
  { method: "post", path: `${agentPath}/context`, summary: "Assemble the prompt with the agent's ACTIVE skills for a query", access: "ingest", apiKeyOnly: true,
    params: learning.agentIdParams, body: s.contextBody,
    responses: { 200: { description: "the injected skills and the provider's messages", schema: learned.contextResponse } } },
  // Personas (lib/persona).
  { method: "get", path: "/api/v1/accounts/{user_id}/persona", summary: "The account's approved persona (never a pending proposal)", access: "ingest", apiKeyOnly: true,
    params: personaParams, query: personaQuery,
    responses: { 200: { description: "the approved persona and its memory reference", schema: learned.approvedPersonaResponse } } },
  { method: "post", path: `${agentPath}/conversations`, summary: "Store conversation messages (idempotent on message_id)", access: "ingest",
    params: s.agentParams, body: s.conversationBody,
    responses: { 201: { description: "counts of new and already-stored messages", schema: s.conversationResponse } } },
  // Evidence ledger (lib/ledger): ids are any non-blank text up to 512 UTF-8 bytes, percent-encoded.
  { method: "post", path: "/api/v1/ledger/procedures", summary: "Propose an immutable procedure (identical re-proposal returns the current record)", access: "ingest", apiKeyOnly: true,
    body: ledger.proposeBody,
    responses: { 201: { description: "the new Candidate record" }, 200: { description: "identical proposal: the current record" }, 409: { description: "the id holds a different proposal (code conflict)" } } },
  { method: "get", path: "/api/v1/ledger/procedures/{id}", summary: "A procedure record in a scope", access: "ingest",
    params: ledger.procedureParams, query: ledger.scopeQuery, responses: { 200: { description: "the record" } } },
  { method: "post", path: "/api/v1/ledger/procedures/{id}/evaluations", summary: "Record one paired evaluation (idempotent on case_id)", access: "ingest", apiKeyOnly: true,
    params: ledger.procedureParams, body: ledger.evaluationBody,
    responses: {
      201: { description: "{receipt, duplicate: false}" },
      200: { description: "identical re-delivery: the original receipt, duplicate: true" },
      409: { description: "conflict (different evidence under the case id, evidence already claimed) or invalid_state (phase does not match state)" },
    } },
  { method: "get", path: "/api/v1/ledger/procedures/{id}/evaluations/{case_id}", summary: "An evaluation receipt", access: "ingest",
    params: ledger.caseParams, query: ledger.scopeQuery, responses: { 200: { description: "the receipt" } } },
  { method: "get", path: "/api/v1/ledger/select", summary: "The Active procedure with the highest bound that fits the byte budget, or null", access: "ingest",
    query: ledger.selectQuery, responses: { 200: { description: "{procedure: record | null}" } } },
];

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

function parameters(where: "path" | "query", schema?: z.ZodObject) {
  if (!schema) return [];
  const js = jsonSchema(schema, "input") as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, sch]) => ({
    name,
    in: where,
    required: where === "path" || (js.required ?? []).includes(name),
    schema: sch,
  }));
}

const problem = { description: "problem+json", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = r.schema ? { description: r.description, content: { "application/json": { schema: jsonSchema(r.schema, "output") } } } : { description: r.description, ...(Number(status) >= 400 ? problem : {}) };
  }
  const errors: Record<string, string> = { "400": "validation_error" };
  if (op.access !== "none") Object.assign(errors, { "401": "unauthorized", "403": "forbidden", "429": "rate_limited" });
  if (op.params) errors["404"] = "not_found";
  if (op.body) errors["413"] = `payload_too_large (over ${op.maxBodyBytes ?? SINGLE_BODY_BYTES} bytes)`;
  errors["503"] = "unavailable";
  for (const [status, code] of Object.entries(errors)) responses[status] ??= { ...problem, description: code };
  return {
    summary: op.summary,
    operationId: `${op.method}_${op.path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
    security: op.access === "none" ? [] : op.apiKeyOnly ? [{ apiKey: [] }] : [{ apiKey: [] }, { session: [] }],
    "x-scope": op.access,
    parameters: [...parameters("path", op.params), ...parameters("query", op.query)],
    ...(op.body ? { requestBody: { required: !op.bodyOptional, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } } : {}),
    responses,
  };
}

export function openApiDocument(ops: Operation[] = operations) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "Proctor agent API",
      version: "1",
      description:
        "Authorization: Bearer <api key>. Scope `ingest` covers runs, conversations and reads; `admin` covers configuration and learning decisions (x-scope on each operation). Errors are application/problem+json with a stable `code`.",
    },
    paths,
    components: {
      schemas: { Problem: jsonSchema(s.problemSchema, "output") },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "pk_<prefix>_<secret>" },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "console session" },
      },
    },
  };
}
