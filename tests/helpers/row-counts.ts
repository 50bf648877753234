// The row count of every table of a server's database, in one query: what the fuzzer and the
// access matrix compare before and after requests that must write nothing.
import type pg from "pg";

export type RowCounts = Record<string, number>;

/** The rate limiter's state: every key's request counts, refused ones included (not data). */
const REQUEST_BOOKKEEPING = ["api_key_rate_limits"];

export async function rowCounter(sql: pg.Pool): Promise<() => Promise<RowCounts>> {
  const tables = await sql.query<{ name: string }>(
    "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND NOT table_name = ANY($1) ORDER BY 1",
    [REQUEST_BOOKKEEPING],
  );
  const query = `SELECT ${tables.rows.map((t, i) => `(SELECT count(*)::int FROM ${t.name}) AS c${i}`).join(", ")}`;
  return async () => {
    const row = (await sql.query(query)).rows[0] as Record<string, number>;
    return Object.fromEntries(tables.rows.map((t, i) => [t.name, row[`c${i}`]]));
  };
}

/** The tables whose row count differs between two snapshots. */
export const changedTables = (before: RowCounts, after: RowCounts) => Object.keys(after).filter((t) => after[t] !== before[t]);
