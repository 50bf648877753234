// Every state change of the evidence ledger, by name. Agents call them with ingest keys and
// they are not audited (the procedure rows, receipts and decisions are the record), so
// they take (db, input) with no audit context.
export { proposeProcedure, type ProposeProcedureInput } from "./propose-procedure";

// The hot path of the ledger stays in lib/ledger/record-evaluation.ts (one call of a SQL
// function), whose header gives the figures for its plain-pg path, with the signature
// (db, scope, procedureId, evaluation) that scripts/bench/ledger.ts measures.
export { recordEvaluation } from "../record-evaluation";
