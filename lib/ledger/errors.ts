// The error variants of the reference implementation (qilbee-memory). Callers branch on the
// variant, so each failure carries the exact one the reference gives; as a DomainError each
// variant also has the kind that the HTTP layer answers with (lib/api/problem.ts).
import { DomainError, type ErrorKind, type FieldError } from "../errors";

export type LedgerErrorKind =
  | "ValidationError"
  | "ConstraintViolation"
  | "KeyNotFound"
  | "MemoryOperation"
  /** The ledger's stored schema is not one this code understands: it refuses to start. */
  | "Configuration";

export type LedgerFieldError = FieldError;

const KIND: Record<LedgerErrorKind, ErrorKind> = {
  ValidationError: "validation_error",
  ConstraintViolation: "conflict",
  KeyNotFound: "not_found",
  MemoryOperation: "invalid_state",
  Configuration: "unavailable",
};

export class LedgerError extends DomainError {
  constructor(
    readonly variant: LedgerErrorKind,
    message: string,
    errors?: LedgerFieldError[],
  ) {
    super(KIND[variant], message, errors);
  }
}

/**
 * The ledger's stored schema is not one this build knows. The reason goes to the log; callers
 * get a fixed message (the stored version is operator detail).
 */
export function ledgerRefusesToStart(reason: string): LedgerError {
  console.error(`evidence ledger refused to start: ${reason}`);
  return new LedgerError("Configuration", "The evidence ledger refuses to start: its stored schema version is not supported by this build.");
}

export const isLedgerError = (e: unknown, variant?: LedgerErrorKind): e is LedgerError =>
  e instanceof LedgerError && (variant === undefined || e.variant === variant);
