"use server";
// An admin's experiment decisions from the console: create one for a shadow or active skill
// (the agent then runs its cases through the SDK) and cancel one. The agent API's routes call
// the same operations.
import { z } from "zod";
import { action } from "./action";
import { db } from "../db/client";
import { pathId } from "../path-id";
import { cancelExperiment as cancel, createExperiment as create } from "../experiments/operations";
import { createExperimentBody, experimentParams } from "../experiments/schemas";

export const createExperiment = action("experiments:manage", createExperimentBody.extend({ agent_id: pathId }), async ({ agent_id, ...body }, { audit }) =>
  create(db(), { agentId: agent_id, ...body }, audit),
);

export const cancelExperiment = action("experiments:manage", experimentParams.extend({ reason: z.string().trim().min(1).max(2000) }), async ({ experiment_id, reason }, { audit }) =>
  cancel(db(), { experimentId: experiment_id, reason }, audit),
);
