"use server";
// Dead jobs of any kind, from the inbox and the agent page's shadow queue: retry (queued again
// with fresh attempts) or dismiss (deleted for good, with a reason). The agent API's routes call
// the same operations.
import { action } from "./action";
import { db } from "../db/client";
import { dismissDeadJobs as dismiss, retryDeadJobs as retry } from "../jobs/operations";
import { deadJobSelection, dismissJobBody, retryJobBody } from "../jobs/schemas";

export const retryDeadJobs = action("learning:write", retryJobBody.extend({ select: deadJobSelection }), async (input, { audit }) => retry(db(), input, audit));

export const dismissDeadJobs = action("learning:write", dismissJobBody.extend({ select: deadJobSelection }), async (input, { audit }) =>
  dismiss(db(), input, audit),
);
