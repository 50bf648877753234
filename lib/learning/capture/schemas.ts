// zod schemas of what the learning engine takes and gives: agents, runs, classes, conversations
// and context assembly. The agent API validates and documents with them; scripts
// and the worker use the same rules.
import { z } from "zod";
import { declaredLearningSchema } from "../agents/config";
import { PROVIDERS } from "../inject/provider-roles";
import { outcomeRuleSchema } from "./outcome";
import { pathId } from "../../path-id";
import { parsedArgumentsProblem } from "./canonical";
import { liveDateTime } from "./live-time";

export const isoDateTime = z.iso.datetime({ offset: true });
export const shortText = z.string().min(1).max(256);
/** Optional identifiers: "" and null both mean "absent". */
const optionalId = z.preprocess((v) => (v === "" ? null : v), shortText.nullable().optional());

// ---------------------------------------------------------------- agents

export const toolSchema = z.object({
  name: z.string().trim().min(1).max(128),
  description: z.string().max(8000).default(""),
  /** JSON Schema of the tool's arguments. */
  parameters: z.record(z.string(), z.unknown()).default({}),
});

export const agentPutBody = z.object({
  name: z.string().trim().min(1).max(200),
  tools: z
    .array(toolSchema)
    .max(500)
    .default([])
    .refine((tools) => new Set(tools.map((t) => t.name)).size === tools.length, "tool names must be unique"),
  learning: declaredLearningSchema.default(declaredLearningSchema.parse({})),
  outcome_rule: outcomeRuleSchema.nullable().default(null),
});
export type AgentPutBody = z.output<typeof agentPutBody>;

export const agentResponse = z.object({
  agent_id: z.string(),
  name: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })),
  learning: z.record(z.string(), z.unknown()).describe("every key of the learning configuration, defaults filled"),
  outcome_rule: outcomeRuleSchema.nullable(),
  run_count: z.number().int(),
  last_run_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type AgentResponse = z.infer<typeof agentResponse>;

// ---------------------------------------------------------------- skill decisions

const reason = z.string().trim().min(1).max(2000);

/** Optional: an empty activation keeps the skill's stored authority. */
export const activateBody = z.object({
  injection_role: z.enum(["user", "developer"]).optional(),
  reason: reason.optional(),
  // At most as many paths, as long, as an imported skill folder holds (skills-io/skill-folder.ts).
  confirm_scripts: z
    .array(z.string().min(1).max(300))
    .max(200)
    .optional()
    .describe("an imported skill that bundles scripts: exactly its script files' paths (the skill's `scripts`), confirming a reviewer read them; otherwise 409 naming them"),
});

export const demoteBody = z.object({ reason });

/** The reason is required: it is recorded in the audit log (never shown to the agent). */
export const rejectBody = z.object({ reason });

// ---------------------------------------------------------------- workflows

export const stepSchema = z.looseObject({
  tool: z.string().trim().min(1).max(256),
  /** An object; JSON text is parsed for the trajectory identity (and must hold storable text). */
  arguments: z
    .unknown()
    .optional()
    .superRefine((v, ctx) => {
      const problem = parsedArgumentsProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  result: z.unknown().optional(),
  /** null when the call succeeded; `{type, message}` or any other value when it failed. */
  error: z.unknown().optional(),
  timestamp: z.string().max(64).nullable().optional(),
});

const lowerCase = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);

/** Unknown top-level fields are accepted (and count for idempotency), not stored. */
export const workflowInput = z.looseObject({
  workflow_id: z.string().min(1).max(256).optional(),
  user_id: optionalId,
  thread_id: optionalId,
  root_trace_id: optionalId,
  query: z.string().max(65_536),
  steps: z.array(stepSchema).max(2000),
  execution_error: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).optional(),
  outcome: z.preprocess(lowerCase, z.enum(["success", "failure"]).nullable().optional()),
  skills_activated: z.array(z.string().min(1).max(128)).max(100).optional(),
  answer: z.string().max(262_144).nullable().optional(),
  created_at: liveDateTime.nullable().optional(),
});
export type WorkflowInput = z.output<typeof workflowInput>;

const outcomeWire = z.enum(["success", "failure"]);
const outcomeSourceWire = z.enum(["reported", "rule", "execution", "step_error", "default"]);

export const workflowCreated = z.object({
  id: z.string(),
  workflow_id: z.string(),
  canonical_hash: z.string().nullable(),
  step_count: z.number().int(),
  outcome: outcomeWire,
  outcome_source: outcomeSourceWire,
  promoted_skill_id: z.string().nullable(),
  duplicate: z.boolean(),
});
export type WorkflowCreated = z.infer<typeof workflowCreated>;

const itemError = z.object({
  code: z.enum(["validation_error", "conflict"]),
  detail: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const batchItemResult = z.object({
  index: z.number().int(),
  status: z.union([z.literal(201), z.literal(200), z.literal(400), z.literal(409)]),
  id: z.string().optional(),
  workflow_id: z.string().optional(),
  canonical_hash: z.string().nullable().optional(),
  step_count: z.number().int().optional(),
  outcome: outcomeWire.optional(),
  outcome_source: outcomeSourceWire.optional(),
  promoted_skill_id: z.string().nullable().optional(),
  duplicate: z.boolean().optional(),
  error: itemError.optional(),
});
export type BatchItemResult = z.infer<typeof batchItemResult>;
export const workflowBatchResponse = z.object({ results: z.array(batchItemResult) });

const signatureUnit = z.object({
  tool: z.string(),
  arg_keys: z.array(z.string()),
  errored: z.boolean(),
  error_class: z.string().optional(),
  retry_count: z.number().int(),
});

export const workflowDetail = z.object({
  id: z.string(),
  agent_id: z.string(),
  workflow_id: z.string(),
  user_id: z.string().nullable(),
  thread_id: z.string().nullable(),
  root_trace_id: z.string().nullable(),
  query: z.string(),
  steps: z.array(z.record(z.string(), z.unknown())),
  execution_error: z.unknown().nullable(),
  answer: z.string().nullable(),
  outcome: outcomeWire,
  outcome_source: outcomeSourceWire,
  learning_error: z.string().nullable(),
  canonical_signature: z.array(signatureUnit).nullable(),
  canonical_hash: z.string().nullable(),
  canonical_version: z.number().int().nullable(),
  step_count: z.number().int(),
  promoted_skill_id: z.string().nullable(),
  skills_activated: z.array(z.string()),
  shadow_evaluations: z.array(z.record(z.string(), z.unknown())),
  created_at: isoDateTime,
  received_at: isoDateTime,
});
export type WorkflowDetail = z.infer<typeof workflowDetail>;

// ---------------------------------------------------------------- classes

export const gateSchema = z.object({
  // The gates of lib/learning/classes/gates.ts (GATE_NAMES), in their order.
  name: z.enum(["coverage", "executions", "success_rate", "distinct_queries", "distinct_users", "recency"]),
  passed: z.boolean(),
  detail: z.string(),
  reason: z.string().optional().describe("failed gates only: the engine's report text"),
});

export const classSummary = z.object({
  canonical_hash: z.string(),
  user_id: z.string().nullable().describe("the account whose runs form the class under learning_scope \"user\"; null for an agent-wide class"),
  tools: z.array(z.string()),
  executions: z.number().int(),
  successes: z.number().int(),
  success_rate: z.number(),
  distinct_queries: z.number().int(),
  distinct_users: z
    .number()
    .int()
    .describe("distinct accounts (user_id) among the class's successful runs; under learning_scope \"agent\" the distinct_users gate needs min_distinct_users of them when there are any"),
  first_seen: isoDateTime,
  last_seen: isoDateTime,
  eligible: z.boolean(),
  score: z.number(),
  gates: z.array(gateSchema),
  live_skill: z.object({ skill_id: z.string(), status: z.string() }).nullable(),
  window_start: isoDateTime.nullable().describe("set when the statistics count only the runs since the class's skill was retired"),
});

export const classListResponse = z.object({ classes: z.array(classSummary), next_cursor: z.string().nullable() });

// ---------------------------------------------------------------- conversations

export const conversationBody = z.object({
  thread_id: shortText,
  user_id: shortText,
  root_trace_id: optionalId,
  messages: z
    .array(
      z.object({
        /** When absent, derived from thread, timestamp, role and text. */
        message_id: shortText.optional(),
        role: z.enum(["user", "assistant", "tool"]),
        text: z.string().max(262_144),
        timestamp: liveDateTime,
      }),
    )
    .min(1)
    .max(1000),
});
export type ConversationBody = z.output<typeof conversationBody>;

export const conversationResponse = z.object({ stored: z.number().int(), duplicates: z.number().int() });

// ---------------------------------------------------------------- context assembly

const memory = z.object({
  id: z.string().min(1).max(256),
  source: z.string().max(128).optional(),
  memory_type: z.string().max(128).optional(),
  workflow_id: z.string().max(256).nullish().transform((v) => v ?? undefined),
  canonical_hash: z.string().max(128).nullish().transform((v) => v ?? undefined),
  promoted_skill_id: z.string().max(128).nullish().transform((v) => v ?? undefined),
  text: z.string().max(100_000),
});

export const contextBody = z.object({
  query: z.string().min(1).max(20_000),
  user_id: z.preprocess((v) => (v === "" ? null : v), z.string().max(256).nullable().optional()),
  provider: z
    .enum(PROVIDERS)
    .default("openai")
    .describe(
      "where developer-authority skills go: openai keeps the developer role; openai-compatible, huggingface and mlx merge them into the first system message; " +
        "ollama turns each into a system message in place; anthropic answers them in `system`, gemini in `system_instruction`",
    ),
  system_prompt: z.string().max(100_000).default(""),
  memories: z.array(memory).max(200).default([]),
  /** Conversation so far, placed between the system message and the new turn. */
  history: z
    .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(100_000) }))
    .max(500)
    .default([]),
});
export type ContextBody = z.output<typeof contextBody>;

// Path parameters shared by the agent API and the console's actions.
export const agentIdParams = z.object({ agent_id: pathId });
export const skillParams = z.object({ skill_id: pathId });
export const classParams = z.object({ agent_id: pathId, canonical_hash: pathId });
