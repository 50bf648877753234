// The migration runner's keyed step: forget marks written before they were keyed (the table
// account_forgets, holding plain account ids) move to account_forget_marks under the account's
// HMAC, and the old table goes. SQL alone cannot do it: the key is not in the database. Runs
// after the SQL migrations under the runner's lock; once the old table is gone it does nothing.
import type pg from "pg";
import { forgetKey, forgottenAccount } from "./forget-key";

type PlainMark = { user_id: string; mark: number; forgotten_at: Date };

/** Returns how many marks were moved. */
export async function keyPlainForgetMarks(client: pg.Client): Promise<number> {
  const [tables] = (await client.query(`SELECT to_regclass('account_forgets') IS NOT NULL AS plain, to_regclass('account_forget_marks') IS NOT NULL AS keyed`)).rows;
  if (!tables.plain || !tables.keyed) return 0;
  const rows = (await client.query<PlainMark>(`SELECT user_id, mark, forgotten_at FROM account_forgets`)).rows;
  const lit = (v: string) => client.escapeLiteral(v);
  const key = rows.length ? forgetKey() : null;
  const values = rows.map((r) => `(${lit(forgottenAccount(r.user_id, key!))}, ${Number(r.mark)}, ${lit(r.forgotten_at.toISOString())}::timestamptz)`);
  // One simple query: a single implicit transaction (the embedded server multiplexes connections).
  const insert = values.length
    ? `INSERT INTO account_forget_marks (account, mark, forgotten_at) VALUES ${values.join(", ")}
       ON CONFLICT (account) DO UPDATE SET mark = GREATEST(account_forget_marks.mark, EXCLUDED.mark),
         forgotten_at = GREATEST(account_forget_marks.forgotten_at, EXCLUDED.forgotten_at);`
    : "";
  await client.query(`${insert} DROP TABLE account_forgets;`);
  return rows.length;
}
