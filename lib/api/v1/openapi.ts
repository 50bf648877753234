// The OpenAPI 3.1 document of the agent API, generated from the operations' declarations
// (lib/api/v1/contract.ts) with zod's own JSON Schema output: nothing here is declared twice.
import { z } from "zod";
import { keyScopeFor } from "../../auth/access";
import { SINGLE_BODY_BYTES } from "./limits";
import { problemSchema } from "./schemas";
import { otlpStatus } from "./otlp";
import { mediaTypesOf } from "../raw-body";
import { v1, type Operation, type Reply } from "./contract";

/** The operation's own replies plus the problems every operation of its kind can answer. */
export function repliesOf(op: Operation): Record<number, Reply> {
  const common: Record<number, string> = { 400: "validation_error" };
  if (op.auth !== "none") Object.assign(common, { 401: "unauthorized", 403: "forbidden", 429: "rate_limited" });
  if (op.params) common[404] = "not_found";
  if (op.body) common[413] = `payload_too_large (over ${op.maxBodyBytes ?? SINGLE_BODY_BYTES} bytes)`;
  if (op.body) common[415] = `unsupported_media_type (a body not sent as ${op.rawBody ? mediaTypesOf(op.rawBody).join(" or ") : "application/json"})`;
  common[503] = "unavailable";
  const replies: Record<number, Reply> = { ...op.responses };
  const refusal = op.errors === "otlp" ? otlpStatus : problemSchema;
  for (const [status, code] of Object.entries(common)) replies[Number(status)] ??= { description: code, schema: refusal };
  return replies;
}

/**
 * Definitions shared by the document's schemas. zod writes a recursive schema (a JSON value) into
 * the `$defs` of each schema using it, referenced as `#/$defs/<name>`; OpenAPI resolves a `$ref`
 * from the document's root, so each distinct definition moves to components.schemas once.
 */
type SharedSchemas = Map<string, { name: string; schema: unknown }>;

/** A definition's text with its own name abstracted, so equal definitions compare equal. */
const definitionKey = (schema: unknown, ref: string) => JSON.stringify(schema).replaceAll(`"${ref}"`, '"#"');
const { $schema: _jsonValueDialect, ...jsonValue } = z.toJSONSchema(z.json());
const JSON_VALUE = definitionKey(jsonValue, "#");

function hoistDefinitions({ $defs, ...schema }: Record<string, unknown>, shared: SharedSchemas) {
  if (!$defs) return schema;
  let text = JSON.stringify(schema);
  for (const [local, def] of Object.entries($defs as Record<string, unknown>)) {
    const key = definitionKey(def, `#/$defs/${local}`);
    let hoisted = shared.get(key);
    if (!hoisted) {
      const name = key === JSON_VALUE ? "JsonValue" : `Schema${shared.size + 1}`;
      hoisted = { name, schema: JSON.parse(key.replaceAll('"#"', `"#/components/schemas/${name}"`)) };
      shared.set(key, hoisted);
    }
    text = text.replaceAll(`"#/$defs/${local}"`, `"#/components/schemas/${hoisted.name}"`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output", shared: SharedSchemas) {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return hoistDefinitions(rest, shared);
}

function parameters(where: "path" | "query", shared: SharedSchemas, schema?: z.ZodObject) {
  if (!schema) return [];
  const js = jsonSchema(schema, "input", shared) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, sch]) => ({
    name,
    in: where,
    required: where === "path" || (js.required ?? []).includes(name),
    schema: sch,
  }));
}

const problemRef = { $ref: "#/components/schemas/Problem" };

function operationObject(operationId: string, op: Operation, shared: SharedSchemas) {
  const responses: Record<string, unknown> = {};
  for (const [status, reply] of Object.entries(repliesOf(op))) {
    const problem = reply.schema === problemSchema;
    if (reply.contentType) {
      responses[status] = { description: reply.description, content: { [reply.contentType]: { schema: { type: "string", contentMediaType: reply.contentType } } } };
      continue;
    }
    const schema = problem ? problemRef : jsonSchema(reply.schema, "output", shared);
    // OTLP answers in the request's encoding (the same message as protobuf or JSON); an NDJSON
    // stream's schema is one line's (OpenAPI 3.2 spells it itemSchema).
    const types = op.errors === "otlp" && op.rawBody ? mediaTypesOf(op.rawBody) : [problem ? "application/problem+json" : (reply.mediaType ?? "application/json")];
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
    // A record the path names by id, whose agent a key bound to agents must reach (404 otherwise).
    ...(op.reachByRecord ? { "x-reach-by-record": op.reachByRecord } : {}),
    parameters: [...parameters("path", shared, op.params), ...parameters("query", shared, op.query)],
    ...(op.body ? { requestBody: { required: !op.bodyOptional, content: requestContent(op, shared) } } : {}),
    responses,
  };
}

/** A JSON body's schema, or a raw body's media types: each with what it holds, and the size cap. */
function requestContent(op: Operation, shared: SharedSchemas) {
  if (!op.rawBody) return { "application/json": { schema: jsonSchema(op.body!, "input", shared) } };
  const maxLength = op.maxBodyBytes ?? SINGLE_BODY_BYTES;
  return Object.fromEntries(Object.entries(op.rawBody.media).map(([type, description]) => [type, { schema: { type: "string", contentMediaType: type, maxLength, description } }]));
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  const shared: SharedSchemas = new Map();
  for (const [operationId, op] of Object.entries(v1) as [string, Operation][]) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(operationId, op, shared);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Proctor agent API",
      version: "1",
      description:
        "Authorization: Bearer <api key>. Scope `ingest` covers runs, conversations and reads; `admin` covers configuration and learning decisions; `ledger:propose` (agents) proposes ledger procedures and `ledger:evaluate` (evaluators, bound to one evaluator_id) records evaluations, never both on one key (x-scope on each operation). A key bound to a tenant or agents gets 403 for requests naming others, and 404 for another agent's record addressed by its id (x-reach-by-record on the operation: which path parameter names which record); an expired key gets 401 `key_expired`. Errors are application/problem+json with a stable `code`.",
    },
    paths,
    components: {
      schemas: {
        Problem: jsonSchema(problemSchema, "output", shared),
        ...Object.fromEntries([...shared.values()].map((d) => [d.name, d.schema])),
      },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "pk_<prefix>_<secret>" },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "console session" },
      },
    },
  };
}
