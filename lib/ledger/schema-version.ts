// The ledger's own schema version: checked once per database client before the
// first ledger call. An unknown version, or ledger rows without a version row, means this
// code does not know what it is looking at, so it refuses rather than reading or writing.
// Remembered per client: the version changes only with a deploy, which restarts every process.
import type { Db, Tx } from "../db/prisma";
import { ledgerRefusesToStart } from "./errors";

export const LEDGER_SCHEMA_VERSION = 1;

const ready = new WeakMap<Db | Tx, Promise<void>>();

/** Before a ledger write: an empty ledger without a version row is adopted (the row written). */
export function ensureLedgerSchema(db: Db | Tx): Promise<void> {
  let check = ready.get(db);
  if (!check) {
    check = verify(db, true).then(() => {});
    // Only success is remembered: a refused start is re-checked on the next call.
    check.catch(() => ready.delete(db));
    ready.set(db, check);
  }
  return check;
}

/**
 * Before a ledger read: the same refusals, but nothing is written (the console pages may read a
 * replica, which refuses writes); an empty ledger has nothing to misread, and the first write
 * records its version.
 */
export async function checkLedgerSchema(db: Db | Tx): Promise<void> {
  const known = ready.get(db);
  if (known) return known;
  if (await verify(db, false)) ready.set(db, Promise.resolve());
}

/** Whether the version row is there (and right); false only for an empty ledger not adopted. */
async function verify(db: Db | Tx, adopt: boolean): Promise<boolean> {
  let row = await db.ledgerSchemaVersion.findUnique({ where: { id: 1 } });
  if (!row) {
    const [{ used }] = await db.$queryRaw<{ used: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM ledger_procedures) OR EXISTS (SELECT 1 FROM ledger_evaluations)
          OR EXISTS (SELECT 1 FROM ledger_decisions) AS used`;
    if (used) {
      throw ledgerRefusesToStart("The ledger tables hold records but no ledger schema version; refusing to adopt them.");
    }
    if (!adopt) return false;
    await db.ledgerSchemaVersion.createMany({ data: [{ id: 1, version: LEDGER_SCHEMA_VERSION }], skipDuplicates: true });
    // Another process may have written the row first: whatever is there now is what counts.
    row = await db.ledgerSchemaVersion.findUnique({ where: { id: 1 } });
  }
  if (row?.version !== LEDGER_SCHEMA_VERSION) {
    throw ledgerRefusesToStart(`Unsupported ledger schema version ${row?.version ?? "(none)"}; this build knows ${LEDGER_SCHEMA_VERSION}.`);
  }
  return true;
}
