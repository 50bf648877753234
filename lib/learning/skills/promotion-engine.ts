// What the promotion operations share: the distiller chosen by configuration (the LLM when
// one is configured, else the template distiller) and the cycle under its per-agent lock.
import type { Db } from "../../db/prisma";
import { chatModelFromEnv } from "../../llm/client";
import { withCycleLock } from "./cycle-lock";
import { llmDistiller, templateDistiller, type Distiller } from "../distill/distiller";
import { promotionCycle, type CycleOptions, type PromotionReportView } from "./promotion";

function distillerFromEnv(env: NodeJS.ProcessEnv = process.env): Distiller {
  const model = chatModelFromEnv(env);
  return model ? llmDistiller(model) : templateDistiller;
}

/** Throws promotionCycleRunning() (a Conflict) when a cycle for the agent is already running (in any process). */
export async function lockedPromotionCycle(db: Db, agentId: string, opts: Omit<CycleOptions, "distiller">): Promise<PromotionReportView> {
  return withCycleLock(db, agentId, () => promotionCycle(db, agentId, { ...opts, distiller: distillerFromEnv() }));
}
