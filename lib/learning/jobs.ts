// Background job handlers of the learning engine, registered when the worker's process
// imports this module (scripts/start.ts). Cadence cycles run here, never inside ingestion.
import { systemAuditContext } from "../audit/record";
import { registerJobHandler, registerPeriodicTask } from "../jobs/runtime";
import { isDomainError } from "../errors";
import { runPromotionCycle } from "./operations";
import { PROMOTION_CYCLE_JOB } from "./monitor/monitor";
import { applyRetention } from "./monitor/retention";
// Passive shadow evaluation of new runs (the outbox rows written at ingestion).
import "./shadow/jobs";
import { AGENT_DELETION_JOB } from "./agents/deletion-tables";
import { runAgentDeletionJob } from "./agents/deletion";

registerJobHandler(PROMOTION_CYCLE_JOB, async (database, _payload, agentId) => {
  if (!agentId) return;
  try {
    await runPromotionCycle(database, { agentId, trigger: "cadence" }, systemAuditContext("job:promotion_cycle"));
  } catch (e) {
    // A cycle already running covers these runs; an agent deleted (or being deleted) meanwhile needs none.
    if (isDomainError(e, "conflict") || isDomainError(e, "not_found") || isDomainError(e, "agent_deleting")) return;
    throw e;
  }
});

// Run and conversation retention: at worker start and hourly.
registerPeriodicTask("retention", (database) => applyRetention(database));
// Deleting an agent in batches, after the operation marked it (operations/delete-agent.ts).
registerJobHandler(AGENT_DELETION_JOB, (database, payload, agentId) => runAgentDeletionJob(database, payload, agentId));
