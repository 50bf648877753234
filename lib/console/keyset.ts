// Keyset paging in the URL: `after` names the last row shown (its time and its key columns), so
// the next page is one indexed range read however deep it is; counts stop at COUNT_CAP.
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { textProblem } from "../db/storable-text";
import { param, type SearchParams } from "./url";

export type Cursor = { at: Date; keys: string[] };

/** Longest `after` read from a URL: a time and a few ids. */
const MAX_CURSOR_CHARS = 2048;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at.toISOString(), ...c.keys])).toString("base64url");
}

/** The `after` cursor with `keyCount` keys, or null (absent or not one this list wrote: the first page). */
export function cursorParam(sp: SearchParams, keyCount: number, key = "after"): Cursor | null {
  const raw = param(sp, key);
  if (!raw || raw.length > MAX_CURSOR_CHARS) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (!Array.isArray(v) || v.length !== keyCount + 1 || !v.every((x) => typeof x === "string")) return null;
    const [iso, ...keys] = v as string[];
    const at = new Date(iso);
    if (Number.isNaN(at.getTime()) || keys.some((k) => textProblem(k) !== null)) return null;
    return { at, keys };
  } catch {
    return null;
  }
}

/** Counts stop here: a list longer than this says "10,000+". */
export const COUNT_CAP = 10_000;

export type KeysetPage<T> = { rows: T[]; next: string | null; total: number; capped: boolean };

/** The page's rows from `pageSize + 1` read, and the cursor of the next page when there is one. */
export function keysetPage<T>(read: T[], pageSize: number, cursorOf: (row: T) => Cursor, count: { total: number; capped: boolean }): KeysetPage<T> {
  const rows = read.slice(0, pageSize);
  return { rows, next: read.length > pageSize ? encodeCursor(cursorOf(rows[rows.length - 1])) : null, ...count };
}

/** The rows `from` selects, counted up to COUNT_CAP (`capped` when there are more). */
export async function cappedCount(db: Db, from: Prisma.Sql): Promise<{ total: number; capped: boolean }> {
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (${from} LIMIT ${COUNT_CAP + 1}) c`;
  return { total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}
