// URL parameters of the skills review page: filters, sort, page and the selected skill.
import { z } from "zod";
import { pathId } from "../../path-id";

const text = (max: number) => z.string().trim().max(max).optional().catch(undefined).transform((v) => v || undefined);

export const SKILL_STATUSES = ["active", "shadow", "candidate", "deprecated", "demoted", "rejected"] as const;
export type SkillStatusName = (typeof SKILL_STATUSES)[number];
/** The status chips: every lifecycle status, plus shadow skills whose readiness is met. */
export const SKILL_FILTERS = [...SKILL_STATUSES, "ready"] as const;
export type SkillFilter = (typeof SKILL_FILTERS)[number];

export const SKILL_SORTS = ["lifecycle", "name", "activations", "success", "deviations", "listed"] as const;
export type SkillSort = (typeof SKILL_SORTS)[number];

export const skillQuerySchema = z.object({
  agent: text(128),
  status: z.enum(SKILL_FILTERS).optional().catch(undefined),
  authority: z.enum(["user", "developer"]).optional().catch(undefined),
  q: text(200),
  sort: z.enum(SKILL_SORTS).catch("lifecycle").default("lifecycle"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).catch(25).default(25),
  skill: pathId.optional().catch(undefined),
  /** The selected imported skill's file shown in the viewer (a path inside its folder). */
  file: text(300),
});

export type SkillQuery = z.output<typeof skillQuerySchema>;

/** What the skills list needs of the URL state (optional keys may be left out). */
export type SkillListInput = Pick<SkillQuery, "sort" | "page" | "page_size"> & Partial<Pick<SkillQuery, "agent" | "status" | "authority" | "q" | "dir">>;

export function defaultSkillDir(sort: SkillSort): "asc" | "desc" {
  return sort === "lifecycle" || sort === "name" ? "asc" : "desc";
}
