// The reference's error variants (spec §0). Callers branch on the kind, so each failure
// carries the exact one the spec names; routes map kinds to problem codes (api.md).
export type LedgerErrorKind =
  | "ValidationError"
  | "ConstraintViolation"
  | "KeyNotFound"
  | "MemoryOperation"
  /** The ledger's stored schema is not one this code understands: it refuses to start. */
  | "Configuration";

export type LedgerFieldError = { path: string; message: string };

export class LedgerError extends Error {
  constructor(
    readonly kind: LedgerErrorKind,
    message: string,
    readonly errors?: LedgerFieldError[],
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

export const isLedgerError = (e: unknown, kind?: LedgerErrorKind): e is LedgerError =>
  e instanceof LedgerError && (kind === undefined || e.kind === kind);
