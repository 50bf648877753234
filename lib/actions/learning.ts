"use server";
// An agent's learning: "Distill now", "Run promotion cycle" (the same operations the agent
// API's routes call), saved settings and the retry of a dead shadow evaluation job.
import { action } from "./action";
import { db } from "../db/client";
import { agentIdParams } from "../learning/schemas";
import { learningConfigSchema } from "../learning/config";
import { distillClass as distill, distillInput, promotionCycleInput, runPromotionCycle as runCycle } from "../learning/review/actions";
import { withSkillNames } from "../learning/review/reports";
import { updateLearningConfig } from "../learning/review/settings";
import { deadJobParams, retryShadowJob as retry } from "../learning/shadow/queue-status";

export const distillClass = action("learning:write", distillInput, async (input, { audit }) => withSkillNames(db(), await distill(db(), input, audit)));

export const runPromotionCycle = action("learning:write", promotionCycleInput, async (input, { audit }) =>
  withSkillNames(db(), await runCycle(db(), input, audit)),
);

export const saveLearningSettings = action("learning:write", agentIdParams.extend({ learning: learningConfigSchema }).strict(), async (input, { audit }) => ({
  learning: await updateLearningConfig(db(), input.agent_id, input.learning, audit),
}));

export const retryShadowJob = action("learning:write", deadJobParams.strict(), async (input, { audit }) => retry(db(), input.agent_id, input.job_id, audit));
