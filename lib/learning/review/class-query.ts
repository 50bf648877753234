// URL parameters of the trajectory-classes review page: filters, sort, page and selection.
import { z } from "zod";
import { CLASS_STATUSES } from "./status";
import { pathId } from "../../path-id";

const text = (max: number) => z.string().trim().max(max).optional().catch(undefined).transform((v) => v || undefined);

export const CLASS_SORTS = ["status", "tools", "agent", "runs", "success", "queries", "last_seen"] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

export const classQuerySchema = z.object({
  agent: text(128),
  status: z.enum(CLASS_STATUSES).optional().catch(undefined),
  q: text(200),
  sort: z.enum(CLASS_SORTS).catch("status").default("status"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).catch(25).default(25),
  /** The selected class: hash, agent and user scope ("" or absent: runs without a user). */
  class: pathId.optional().catch(undefined),
  class_agent: text(128),
  class_user: z.string().max(256).optional().catch(undefined),
  runs_page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  reports_page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
  agents_page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

export type ClassQuery = z.output<typeof classQuerySchema>;

/** What the class list needs of the URL state (optional keys may be left out). */
export type ClassListInput = Pick<ClassQuery, "sort" | "page" | "page_size"> & Partial<Pick<ClassQuery, "agent" | "status" | "q" | "dir">>;

/** Status sorts lifecycle-first (ready first) ascending; numbers and times sort descending first. */
export function defaultDir(sort: ClassSort): "asc" | "desc" {
  return sort === "status" || sort === "tools" || sort === "agent" ? "asc" : "desc";
}
