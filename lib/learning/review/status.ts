// Review statuses of trajectory classes and their wording. Browser-safe. Which status a class
// has is decided in SQL by class_review_status (prisma/migrations/*_class_review_status), from
// the engine's own verdict (gap 14: a class whose skill awaits review is "In review", never
// "Ready to distill"); the review list and the class detail both take it from there.
import type { GateName } from "../classes/gates";
import { CLASS_WORDS } from "./vocabulary";

export const CLASS_STATUSES = ["ready", "failing", "evidence", "in_review", "promoted"] as const;
export type ClassStatus = (typeof CLASS_STATUSES)[number];

export const CLASS_STATUS_LABEL: Record<ClassStatus, string> = {
  ready: "Ready to distill",
  failing: "Failing",
  evidence: "Needs more evidence",
  in_review: "In review",
  promoted: CLASS_WORDS.covered,
};

export const GATE_LABEL: Record<GateName, string> = {
  coverage: "Coverage",
  executions: "Executions",
  success_rate: "Success rate",
  distinct_queries: "Query diversity",
  distinct_users: "Distinct accounts",
  recency: "Recency",
};

export const GATE_SHORT: Record<GateName, string> = {
  coverage: "cov",
  executions: "runs",
  success_rate: "rate",
  distinct_queries: "qry",
  distinct_users: "acct",
  recency: "new",
};

/** What each gate measures, for reviewers. */
export const GATE_MEASURES: Record<GateName, string> = {
  coverage: "No live skill (candidate, shadow or active) already covers this class.",
  executions: "Enough runs to trust the procedure (min_executions).",
  success_rate: "The procedure usually works (min_success_rate).",
  distinct_queries: "Different questions led here: one repeated query is a cache entry, not a skill (min_distinct_queries).",
  distinct_users:
    "Under the agent-wide learning scope, enough different accounts ran it successfully: one account's habit never becomes everyone's skill (min_distinct_users; classes whose runs carry no account are not gated).",
  recency: "The procedure is still in use (max_days_since_last_seen).",
};
