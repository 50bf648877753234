// The OpenAPI 3.1 document of the agent API, generated from the operations' declarations
// (lib/api/v1/contract.ts) with zod's own JSON Schema output: nothing here is declared twice.
import { z } from "zod";
import { keyScopeFor } from "../../auth/access";
import { SINGLE_BODY_BYTES } from "./limits";
import { problemSchema } from "./schemas";
import { otlpStatus } from "./otlp";
import { v1, type Operation, type Reply } from "./contract";

/** The operation's own replies plus the problems every operation of its kind can answer. */
export function repliesOf(op: Operation): Record<number, Reply> {
  const common: Record<number, string> = { 400: "validation_error" };
  if (op.auth !== "none") Object.assign(common, { 401: "unauthorized", 403: "forbidden", 429: "rate_limited" });
  if (op.params) common[404] = "not_found";
  if (op.body) common[413] = `payload_too_large (over ${op.maxBodyBytes ?? SINGLE_BODY_BYTES} bytes)`;
  if (op.body) common[415] = `unsupported_media_type (a body not sent as ${op.rawBody ? op.rawBody.types.join(" or ") : "application/json"})`;
  common[503] = "unavailable";
  const replies: Record<number, Reply> = { ...op.responses };
  const refusal = op.errors === "otlp" ? otlpStatus : problemSchema;
  for (const [status, code] of Object.entries(common)) replies[Number(status)] ??= { description: code, schema: refusal };
  return replies;
}

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

const problemRef = { $ref: "#/components/schemas/Problem" };

function operationObject(operationId: string, op: Operation) {
  const responses: Record<string, unknown> = {};
  for (const [status, reply] of Object.entries(repliesOf(op))) {
    const problem = reply.schema === problemSchema;
    const schema = problem ? problemRef : jsonSchema(reply.schema, "output");
    // OTLP answers in the request's encoding: the same message as protobuf or JSON.
    const types = op.rawBody ? op.rawBody.types : [problem ? "application/problem+json" : "application/json"];
    responses[status] = { description: reply.description, content: Object.fromEntries(types.map((t) => [t, { schema }])) };
  }
  return {
    operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.auth === "none" ? [] : op.auth === "apiKey" ? [{ apiKey: [] }] : [{ apiKey: [] }, { session: [] }],
    "x-scope": op.auth === "none" || !op.access ? "none" : keyScopeFor(op.access),
    "x-access": op.access ?? "none",
    parameters: [...parameters("path", op.params), ...parameters("query", op.query)],
    ...(op.body ? { requestBody: { required: !op.bodyOptional, content: requestContent(op) } } : {}),
    responses,
  };
}

function requestContent(op: Operation) {
  if (!op.rawBody) return { "application/json": { schema: jsonSchema(op.body!, "input") } };
  const description = op.body!.description;
  return Object.fromEntries(op.rawBody.types.map((t) => [t, { schema: { description } }]));
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, op] of Object.entries(v1) as [string, Operation][]) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(operationId, op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Proctor agent API",
      version: "1",
      description:
        "Authorization: Bearer <api key>. Scope `ingest` covers runs, conversations and reads; `admin` covers configuration and learning decisions; `ledger:propose` (agents) proposes ledger procedures and `ledger:evaluate` (evaluators, bound to one evaluator_id) records evaluations, never both on one key (x-scope on each operation). A key bound to a tenant or agents gets 403 for requests naming others; an expired key gets 401 `key_expired`. Errors are application/problem+json with a stable `code`.",
    },
    paths,
    components: {
      schemas: { Problem: jsonSchema(problemSchema, "output") },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "pk_<prefix>_<secret>" },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "console session" },
      },
    },
  };
}
