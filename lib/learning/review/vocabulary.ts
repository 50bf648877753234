// The console's words for the learning lifecycle, in one place (browser-safe). Chips, toasts,
// reports and docs use these; API field names (`promoted`, `promoted_at`, `exclude_promoted`)
// keep their published spelling.
//   A skill is candidate, shadow, active, demoted, deprecated or rejected (in review, before activation).
//   Distilling a class *creates* a skill: shadow (or candidate) when review is on, active when it is off.
//   A class is *covered* by a live skill (candidate, shadow or active); "in review" while that
//   skill awaits a decision, "covered" once it is active.
import type { SkillStatusName } from "./skill-query";

export const SKILL_STATUS_LABEL: Record<SkillStatusName, string> = {
  candidate: "candidate",
  shadow: "shadow",
  active: "active",
  demoted: "demoted",
  deprecated: "deprecated",
  rejected: "rejected",
};

/** What the class statuses are called (the status key `promoted` is the SQL rule's; its word is "Covered"). */
export const CLASS_WORDS = { covered: "Covered", coveredBy: "Covered by" } as const;

/** A report's list of the skills a cycle or Distill now created (the report's `promoted` field). */
export const CREATED_SKILLS = "Skills created";

/** The skill history's event names (skill_events.event) in these words. */
export const SKILL_EVENT_LABEL: Record<string, string> = {
  skill_candidate_created: "Created for review",
  skill_promoted: "Created active (review off)",
  skill_activated: "Activated",
  skill_demoted: "Demoted",
  skill_deprecated: "Deprecated",
  skill_rejected: "Rejected in review",
};

/** "1 shadow skill created" / "2 skills created (1 shadow, 1 active)" / "No new skill". */
export function createdSkillsSentence(statuses: string[]): string {
  const n = statuses.length;
  if (n === 0) return "No new skill";
  const by = new Map<string, number>();
  for (const s of statuses) by.set(s, (by.get(s) ?? 0) + 1);
  if (by.size === 1) return `${n} ${statuses[0]} skill${n === 1 ? "" : "s"} created`;
  return `${n} skills created (${[...by].map(([s, k]) => `${k} ${s}`).join(", ")})`;
}
