// What persona evolution refuses with, as lib/errors.ts classes carrying the reference's exact
// messages. The route wrapper turns them into problems; the messages never quote goals or
// evidence, and any other failure of an operation never leaks its own text.
import { AuditUnavailableError, type AuditContext } from "../audit/record";
import { Conflict, NotFound, Unavailable } from "../errors";

export const PERSONA_MESSAGES = {
  auditUnavailable: "Audited persona access is unavailable",
  conflict: "This action could not be applied. Reload the profile; it may have changed or be paused.",
  unavailable: "Persona service unavailable. Reload to check the saved state before retrying.",
  loadFailed: "The account's learning profile could not be loaded. No changes were made.",
} as const;

/** A stale revision, a paused profile or a state that does not allow the action; `why` is for logs only. */
export class PersonaConflict extends Conflict {
  constructor(readonly why: string) {
    super(PERSONA_MESSAGES.conflict);
  }
}

/** The account has no persona and no conversation evidence to start one from. */
export class PersonaNotFound extends NotFound {
  constructor() {
    super("A persona or conversation for this account");
  }
}

/** The audit row could not be written (or its pseudonym key read): nothing was read or changed. */
export class PersonaAuditUnavailable extends Unavailable {
  constructor(cause: unknown) {
    super(PERSONA_MESSAGES.auditUnavailable, { cause });
  }
}

/**
 * What a persona operation throws for `e`: its own refusals as they are, an unwritable audit row
 * as PersonaAuditUnavailable, anything else logged by name only (never its text, which may quote
 * goals) and answered with `message`.
 */
export function personaFailure(e: unknown, by: AuditContext, action: string, message: string = PERSONA_MESSAGES.unavailable): Error {
  if (e instanceof PersonaConflict || e instanceof PersonaNotFound || e instanceof PersonaAuditUnavailable) return e;
  if (e instanceof AuditUnavailableError) return new PersonaAuditUnavailable(e);
  console.error(`[${by.requestId}] ${action} failed: ${(e as Error)?.name ?? "error"}`);
  return new Unavailable(message, { cause: e });
}
