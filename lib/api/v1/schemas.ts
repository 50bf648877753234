// zod schemas of the agent API: path parameters, query strings and the request and
// response shapes that exist only on the wire. The learning engine's own shapes live in
// lib/learning/capture/schemas.ts and are re-exported here, so routes, tests and
// /api/v1/openapi.json find every shape in one module.
import { z } from "zod";
import { pathId } from "../../path-id";
import { shortText, workflowDetail } from "../../learning/capture/schemas";

export * from "../../learning/capture/schemas";

export const agentParams = z.object({ agent_id: pathId });
export const workflowParams = z.object({ id: pathId });

// ---------------------------------------------------------------- workflows

export const MAX_BATCH = 1000;
export const workflowBatchBody = z.object({ workflows: z.array(z.unknown()).min(1).max(MAX_BATCH) });

const booleanText = z.enum(["true", "false"]).transform((v) => v === "true");

export const workflowSearchQuery = z.object({
  query: z.string().min(1).max(4096).describe("text the runs' queries are compared with"),
  user_id: shortText.optional().describe("only this user's runs"),
  limit: z.coerce.number().int().min(1).max(50).default(5),
  exclude_promoted: booleanText.default(true).describe("leave out runs covered by an ACTIVE skill (default true)"),
});

export const workflowSearchResponse = z.object({
  workflows: z.array(workflowDetail.extend({ similarity: z.number() })),
});

// ---------------------------------------------------------------- exports and deletion

const isoTime = z.iso.datetime({ offset: true, error: "must be an ISO-8601 time" });

export const workflowExportQuery = z.object({
  from: isoTime.optional().describe("only runs created at or after this time"),
  to: isoTime.optional().describe("only runs created before this time"),
  canonical_hash: shortText.optional().describe("only the runs of this trajectory class"),
  user_id: shortText.optional().describe("only this user's runs"),
  outcome: z.enum(["success", "failure"]).optional().describe("only runs with this outcome"),
});

export const agentDeleteQuery = z.object({
  include_ledger: booleanText.default(false).describe("also delete the ledger procedures of the agent's scope (default false: they stay)"),
});

export const agentDeleteBody = z.object({ reason: z.string().trim().min(1).max(2000).optional() }).strict();

export const agentDeletionResponse = z.object({
  agent_id: z.string(),
  status: z.literal("deleting"),
  deleting_since: z.string(),
  include_ledger: z.boolean(),
});

// ---------------------------------------------------------------- classes

export const classListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("page size"),
  cursor: z.string().max(512).optional().describe("the next_cursor of the previous page (opaque)"),
  user_id: shortText.optional().describe("only this account's own classes (learning_scope \"user\"); under \"agent\" every class is agent-wide (user_id null) and none is an account's"),
});

// ---------------------------------------------------------------- misc

export const healthResponse = z.object({ status: z.string(), database: z.string() });

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum([
    "validation_error",
    "unauthorized",
    "forbidden",
    "not_found",
    "conflict",
    "invalid_state",
    "payload_too_large",
    "rate_limited",
    "unavailable",
    "key_expired",
    "unresolved_reference",
    "agent_deleting",
    "method_not_allowed",
    "unsupported_media_type",
    "headers_too_large",
  ]),
  request_id: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
