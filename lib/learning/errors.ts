// The learning engine's errors that several places throw, each with one message.
import { AgentDeleting, Conflict, DomainError, NotFound } from "../errors";

export const agentNotFound = (agentId: string) => new NotFound(`Agent '${agentId}'`);

export const agentDeleting = (agentId: string) => new AgentDeleting(agentId);

/** At most one promotion cycle per agent runs at a time (lib/learning/skills/cycle-lock.ts). */
export const promotionCycleRunning = () => new Conflict("A promotion cycle is already running for this agent.");

/**
 * Activating a skill that bundles scripts names each of them (`confirm_scripts`): a 409 listing the
 * scripts, each also as a field error, when the list given is not exactly them.
 */
export const scriptsUnconfirmed = (scripts: readonly string[]) =>
  new DomainError(
    "invalid_state",
    `This skill bundles ${scripts.length} script file${scripts.length === 1 ? "" : "s"} an agent could run: ${scripts.join(", ")}. Activation must confirm exactly these in confirm_scripts after reading them.`,
    scripts.map((path) => ({ path: "/confirm_scripts", message: path })),
  );
