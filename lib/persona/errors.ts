// What persona evolution refuses with, as lib/errors.ts classes carrying the reference's exact
// messages (seed 003). The route wrapper turns them into problems; the messages never quote goals or
// evidence, and adapter failures never leak their own text.
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
