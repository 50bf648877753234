// Stored promotion reports, newest first and paged, with the names of the skills they
// promoted or deprecated so that the page can link them.
import type { Db } from "../../db/prisma";
import type { PromotionReportView } from "../skills/promotion";

export type SkillName = { id: string; name: string; version: number; status: string };

export type ReportWithSkills = { report: PromotionReportView; skills: Record<string, SkillName> };

async function skillNames(db: Db, ids: string[]): Promise<Record<string, SkillName>> {
  if (ids.length === 0) return {};
  const rows = await db.skill.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true, version: true, status: true } });
  return Object.fromEntries(rows.map((s) => [s.id, { ...s, status: s.status.toLowerCase() }]));
}

export async function withSkillNames(db: Db, report: PromotionReportView): Promise<ReportWithSkills> {
  return { report, skills: await skillNames(db, [...report.promoted, ...report.deprecated]) };
}

export async function latestReports(db: Db, agentId: string | undefined, page: number, pageSize: number): Promise<{ reports: ReportWithSkills[]; total: number }> {
  const where = agentId ? { agentId } : {};
  const [rows, total] = await Promise.all([
    db.promotionReport.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], skip: (page - 1) * pageSize, take: pageSize, select: { report: true } }),
    db.promotionReport.count({ where }),
  ]);
  const reports = rows.map((r) => r.report as PromotionReportView);
  const names = await skillNames(db, reports.flatMap((r) => [...r.promoted, ...r.deprecated]));
  return { reports: reports.map((report) => ({ report, skills: names })), total };
}
