// The only errors domain code (lib/<domain>) throws on purpose. Each class has a stable machine
// `kind`; the HTTP layer maps kinds to problem+json in one place (problemFromDomain) and the server
// action wrapper maps them to a typed result. Messages are shown to callers as they are, so
// they never quote private text (persona goals, conversation excerpts).
export type ErrorKind = "not_found" | "conflict" | "invalid_state" | "validation_error" | "forbidden" | "unavailable" | "unresolved_reference" | "agent_deleting" | "payload_too_large";

/** A field that failed validation: a JSON pointer into the input and what is wrong with it. */
export type FieldError = { path: string; message: string };

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly fields?: FieldError[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The thing named does not exist (or the caller may not know that it does). */
export class NotFound extends DomainError {
  constructor(what: string) {
    super("not_found", `${what} was not found.`);
  }
}

/** The input holds more than a stated limit lets one request hold (more spans than an export may). */
export class TooLarge extends DomainError {
  constructor(message: string) {
    super("payload_too_large", message);
  }
}

/** The input contradicts what is stored (a duplicate id with another body, a name taken). */
export class Conflict extends DomainError {
  constructor(message: string) {
    super("conflict", message);
  }
}

/** The thing exists but is not in a state that allows this (a demoted skill activated, a cycle running). */
export class InvalidState extends DomainError {
  constructor(message: string) {
    super("invalid_state", message);
  }
}

/** The input breaks a rule zod cannot see at the boundary. */
export class Validation extends DomainError {
  constructor(message: string, fields?: FieldError[]) {
    super("validation_error", message, fields);
  }
}

/** A well-formed reference in the input names nothing stored (a ledger evidence_ref's run or trace). */
export class UnresolvedReference extends DomainError {
  constructor(message: string, fields?: FieldError[]) {
    super("unresolved_reference", message, fields);
  }
}

/** The agent's deletion has started: it takes no more writes. */
export class AgentDeleting extends DomainError {
  constructor(agentId: string) {
    super("agent_deleting", `Agent '${agentId}' is being deleted; it accepts no more changes.`);
  }
}

/** The caller is known but may not do this. */
export class Forbidden extends DomainError {
  constructor(message = "You are not allowed to do this.") {
    super("forbidden", message);
  }
}

/** A dependency (the database, the audit log, a model) cannot serve the request now; nothing was changed. */
export class Unavailable extends DomainError {
  constructor(message = "The service is temporarily unavailable.", options?: { cause?: unknown }) {
    super("unavailable", message, undefined, options);
  }
}

export const isDomainError = (e: unknown, kind?: ErrorKind): e is DomainError =>
  e instanceof DomainError && (kind === undefined || e.kind === kind);
