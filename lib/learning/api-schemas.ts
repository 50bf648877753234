// zod schemas of the learning engine's API (api.md: promotion, skills, context assembly).
import { z } from "zod";
import { pathId } from "../api/v1/schemas";

export const agentIdParams = z.object({ agent_id: pathId });
export const skillParams = z.object({ skill_id: pathId });
export const classParams = z.object({ agent_id: pathId, canonical_hash: pathId });

export const skillStatus = z.enum(["candidate", "shadow", "active", "deprecated", "demoted"]);

export const skillListQuery = z.object({
  status: skillStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const reportListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** "Distill now": every user scope of the hash, or only the one named (`user_id=` empty: runs without a user). */
export const distillQuery = z.object({ user_id: z.string().max(256).optional() });

const reason = z.string().trim().min(1).max(2000);

export const activateBody = z.object({
  injection_role: z.enum(["user", "developer"]).optional(),
  reason: reason.optional(),
});

export const demoteBody = z.object({ reason });

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
  provider: z.enum(["openai", "openai-compatible", "anthropic", "ollama"]).default("openai"),
  system_prompt: z.string().max(100_000).default(""),
  memories: z.array(memory).max(200).default([]),
  /** Conversation so far, placed between the system message and the new turn. */
  history: z
    .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(100_000) }))
    .max(500)
    .default([]),
});
export type ContextBody = z.output<typeof contextBody>;
