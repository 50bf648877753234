"use server";
// An agent's learning: "Distill now", "Run promotion cycle" (the same operations the agent
// API's routes call), saved settings, and deleting the agent (confirmed by typing its id, with a
// reason). Dead jobs are retried and dismissed in lib/actions/jobs.ts.
import { z } from "zod";
import { action } from "./action";
import { db } from "../db/client";
import { learningConfigSchema } from "../learning/agents/config";
import { deleteAgent as startDeletion, distillClass as distill, runPromotionCycle as runCycle, updateLearningConfig } from "../learning/operations";
import { withSkillNames } from "../learning/review/reports";
import { agentIdParams, classParams } from "../learning/capture/schemas";

const distillInput = classParams
  .extend({
    /** The class's user scope: null for runs without a user; omitted for every user scope. */
    user_id: z.string().max(256).nullable().optional(),
  })
  .strict();

export const distillClass = action("learning:write", distillInput, async (input, { audit }) => {
  const only = input.user_id !== undefined ? { userId: input.user_id } : {};
  return withSkillNames(db(), await distill(db(), { agentId: input.agent_id, canonicalHash: input.canonical_hash, ...only }, audit));
});

export const runPromotionCycle = action("learning:write", agentIdParams.strict(), async (input, { audit }) =>
  withSkillNames(db(), await runCycle(db(), { agentId: input.agent_id, trigger: "manual" }, audit)),
);

export const saveLearningSettings = action("learning:write", agentIdParams.extend({ learning: learningConfigSchema }).strict(), async (input, { audit }) => ({
  learning: await updateLearningConfig(db(), { agentId: input.agent_id, learning: input.learning }, audit),
}));

const deleteAgentInput = agentIdParams
  .extend({
    /** The agent id typed again by the admin. */
    confirm_agent_id: z.string().max(256),
    reason: z.string().trim().min(1).max(2000),
    include_ledger: z.boolean().default(false),
  })
  .strict()
  .refine((i) => i.confirm_agent_id === i.agent_id, { path: ["confirm_agent_id"], message: "type the agent's id to confirm" });

export const deleteAgent = action("learning:write", deleteAgentInput, async (input, { audit }) => {
  const { started: _, ...deletion } = await startDeletion(db(), { agentId: input.agent_id, includeLedger: input.include_ledger, reason: input.reason }, audit);
  return deletion;
});
