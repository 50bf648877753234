// Console URL state: page, sort, filters and selection live in the query string. Browser-safe;
// the page loaders build their links with it and the tables render them.

import { textProblem } from "../db/storable-text";

export type SearchParams = Record<string, string | string[] | undefined>;

/** `path?query` with `changes` applied to the current parameters (null removes one). */
export function hrefWith(path: string, current: SearchParams, changes: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(current)) {
    if (typeof v === "string" && v !== "") q.set(k, v);
  }
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === "") q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The first value of a search parameter. */
export function param(sp: SearchParams, key: string): string | undefined {
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

/** A text filter from the URL the database can compare (trimmed, at most 128 characters, storable), or undefined. */
export function filterText(v: string | undefined): string | undefined {
  const t = v?.trim().slice(0, 128);
  return t && textProblem(t) === null ? t : undefined;
}

/** The page number in the URL: a whole number from 1 to 100,000 (the lists' bound), else 1. */
export function pageParam(sp: SearchParams, key = "page"): number {
  const n = Number(param(sp, key));
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** A sortable column header: a link to the same list sorted by this column. */
export type SortHeader = { key: string; label: string; href: string; active: "asc" | "desc" | null };

/** A filter chip: a link to the list with this value selected; `count` is omitted for chips that only filter. */
export type Chip = { value: string | null; label: string; count?: number; href: string };
