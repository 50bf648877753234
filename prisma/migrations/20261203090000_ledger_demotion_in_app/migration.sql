-- Hand-written (Prisma's schema language cannot express triggers). A ledger suspension of a
-- skill's procedure demotes the skill in TypeScript now, in the transaction that suspends the
-- procedure (lib/ledger/record-evaluation.ts, lib/ledger/skills.ts#demoteSuspendedSkill), through
-- the skill lifecycle's retireSkill and the typed audit writer recordAudit. The trigger that did
-- the same writes in plpgsql, and wrote its audit row past the audit event union, goes.
-- Idempotent: re-running it changes nothing more.
DROP TRIGGER IF EXISTS ledger_suspension_demotes_skill ON ledger_procedures;
DROP FUNCTION IF EXISTS ledger_suspension_demotes_skill();
