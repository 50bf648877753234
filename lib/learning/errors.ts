// The learning engine's errors that several places throw, each with one message.
import { AgentDeleting, Conflict, NotFound } from "../errors";

export const agentNotFound = (agentId: string) => new NotFound(`Agent '${agentId}'`);

export const agentDeleting = (agentId: string) => new AgentDeleting(agentId);

/** At most one promotion cycle per agent runs at a time (lib/learning/skills/cycle-lock.ts). */
export const promotionCycleRunning = () => new Conflict("A promotion cycle is already running for this agent.");
