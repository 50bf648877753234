// One experiment's report page: the report view model, the measured skill's name, and the
// export links. Null when the experiment does not exist (the page answers 404).
import "server-only";
import type { Db } from "../../db/prisma";
import { NotFound } from "../../errors";
import { experimentReport, type ExperimentReport } from "../report";

export const exportHref = (experimentId: string, format: "csv" | "json") => `/api/console/experiments/${encodeURIComponent(experimentId)}/export?format=${format}`;

export async function loadExperimentPage(db: Db, experimentId: string): Promise<{ report: ExperimentReport; skillName: string | null } | null> {
  try {
    const report = await experimentReport(db, experimentId);
    const skill = await db.skill.findUnique({ where: { id: report.experiment.skill_id }, select: { name: true } });
    return { report, skillName: skill?.name ?? null };
  } catch (e) {
    if (e instanceof NotFound) return null;
    throw e;
  }
}
