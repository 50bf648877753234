// The Skills page's view model: the skill list with its chips and sort headers, the summary
// totals and the selected skill's detail. A skill selected in the URL loads beside the list.
import "server-only";
import type { Db } from "../../db/prisma";
import { hrefWith, type Chip, type SearchParams, type SortHeader } from "../../console/url";
import { getSkillDetail } from "../review/skill-detail";
import { listReviewSkills, skillTotals } from "../review/skill-list";
import { marksText, skillMarks } from "../review/skill-marks";
import { defaultSkillDir, SKILL_STATUSES, skillQuerySchema, type SkillSort } from "../review/skill-query";

export const SKILLS_PATH = "/skills";
const LIST_RESET = { page: null } as const;
const SORT_LABEL: Record<SkillSort, string> = { name: "Skill", lifecycle: "Status", activations: "Activations", success: "Success", deviations: "Deviations", listed: "Listed" };
export const SKILL_STATUS_LABEL: Record<string, string> = { active: "Active", shadow: "Shadow", candidate: "Candidate", deprecated: "Deprecated", demoted: "Demoted", rejected: "Rejected", ready: "Ready to review" };

export type SkillRowView = {
  key: string;
  selectHref: string;
  name: string;
  version: number;
  status: string;
  agentName: string;
  showAgent: boolean;
  authority: "user" | "developer";
  tools: string[];
  activations: number;
  successRate: number | null;
  deviations: number;
  shadow: { ready: boolean; observations: number } | null;
  listedAt: string;
  /** An imported skill's scripts and review warnings, in words ("" for none). */
  marks: string;
  /** The procedure (canonical hash) the skill was distilled from: bulk review groups by it. */
  procedure: string;
  /** The account of a per-account skill (null: agent-wide). */
  account: string | null;
  /** Shadow or candidate: activate or reject may be decided. */
  decidable: boolean;
  /** Bundles scripts: activated only on its own, confirming them. */
  scripts: boolean;
};

/** `withAudit` / `withLedger`: the detail includes the skill's audit trail / ledger qualification (admins). */
export async function loadSkillsPage(db: Db, sp: SearchParams, see: { withAudit: boolean; withLedger: boolean }) {
  const q = skillQuerySchema.parse(sp);
  const listing = listReviewSkills(db, q);
  const [list, all, detail, marks] = await Promise.all([
    listing,
    // The summary counts every skill; the list's totals are under the text and authority filters.
    listing.then((l) => (q.q || q.authority ? skillTotals(db, l.agents, {}) : l.totals)),
    (q.skill ? Promise.resolve(q.skill) : listing.then((l) => l.rows[0]?.id)).then((id) => (id ? getSkillDetail(db, id, { ...see, file: q.file }) : null)),
    listing.then((l) => skillMarks(db, l.rows.map((r) => r.id))),
  ]);

  const rows: SkillRowView[] = list.rows.map((r) => ({
    key: r.id,
    selectHref: hrefWith(SKILLS_PATH, sp, { skill: r.id, file: null }),
    name: r.name,
    version: r.version,
    status: r.status,
    agentName: r.agentName,
    showAgent: !q.agent,
    authority: r.injectionRole,
    tools: r.tools,
    activations: r.activations,
    successRate: r.successes + r.failures ? r.successes / (r.successes + r.failures) : null,
    deviations: r.deviations,
    shadow: r.readiness ? { ready: r.readiness.ready, observations: r.readiness.observations } : null,
    listedAt: (r.promotedAt ?? r.createdAt).toISOString(),
    marks: marksText(marks.get(r.id)),
    procedure: r.sourceCanonicalHash,
    account: r.userScope === "" ? null : r.userScope,
    decidable: r.status === "shadow" || r.status === "candidate",
    scripts: (marks.get(r.id)?.scripts ?? 0) > 0,
  }));
  const dir = q.dir ?? defaultSkillDir(q.sort);
  const headers: SortHeader[] = (Object.keys(SORT_LABEL) as SkillSort[]).map((k) => ({
    key: k,
    label: SORT_LABEL[k],
    active: q.sort === k ? dir : null,
    href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, sort: k, dir: q.sort === k ? (dir === "asc" ? "desc" : "asc") : defaultSkillDir(k) }),
  }));
  const counts = list.totals.counts;
  const present = SKILL_STATUSES.filter((s) => counts[s] > 0 || q.status === s);
  const statusChips: Chip[] = [
    { value: null, label: "All", count: SKILL_STATUSES.reduce((a, s) => a + counts[s], 0), href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, status: null }) },
    ...present.map((s) => ({ value: s, label: SKILL_STATUS_LABEL[s], count: counts[s], href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, status: s }) })),
    ...(counts.shadow > 0 || q.status === "ready" ? [{ value: "ready", label: SKILL_STATUS_LABEL.ready, count: counts.ready, href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, status: "ready" }) }] : []),
  ];
  const authorityChips: Chip[] = [
    { value: null, label: "Any authority", href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, authority: null }) },
    ...(["user", "developer"] as const).map((a) => ({ value: a, label: `authority: ${a}`, href: hrefWith(SKILLS_PATH, sp, { ...LIST_RESET, authority: a }) })),
  ];

  return {
    q,
    all,
    skillsTotal: SKILL_STATUSES.reduce((n, s) => n + all.counts[s], 0),
    /** Statuses the summary shows only when some skill has them. */
    optional: (["candidate", "demoted", "deprecated"] as const).filter((s) => all.counts[s] > 0),
    rows,
    total: list.total,
    headers,
    statusChips,
    authorityChips,
    detail,
  };
}
