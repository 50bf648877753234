// The report as a download: JSON is the report view model as it is; CSV has one row per case ×
// arm (means over its repetitions, with the arm's place in the case's order and that order), one
// aggregate row per arm, one delta row per treatment arm (each metric's paired delta from the
// baseline, its 95 % interval as *_low / *_high), and an arm_order row whose note says whether
// the arms were counterbalanced. CSV through the one writer (../text/csv.ts: formula escaping).
import { csvRows, type CsvCell } from "../text/csv";
import { z } from "zod";
import { METRICS } from "./scoring";
import type { ExperimentReport } from "./report";

export const reportExportQuery = z.object({ format: z.enum(["csv", "json"]).default("csv") });
export type ReportExportFormat = z.output<typeof reportExportQuery>["format"];

export const reportExportMediaType = (format: ReportExportFormat) => (format === "csv" ? "text/csv; charset=utf-8" : "application/json");

const keys = METRICS.map((m) => m.key);
export const CSV_COLUMNS = ["row", "case_id", "arm", "reported", ...keys, ...keys.flatMap((k) => [`${k}_low`, `${k}_high`]), "arm_position", "arm_order", "note"];

export function reportCsv(r: ExperimentReport): string {
  const blank = keys.flatMap(() => ["", ""]);
  const orderOf = new Map(r.cases.map((c) => [c.case_id, c.arm_order]));
  const rows: CsvCell[][] = [
    ...r.rows.map((x) => {
      const order = orderOf.get(x.case_id) ?? [];
      return ["case", x.case_id, x.arm, x.reported, ...keys.map((k) => x.figures?.[k] ?? null), ...blank, order.indexOf(x.arm) + 1, order.join(" > "), ""];
    }),
    ...r.aggregates.map((a) => ["aggregate", "", a.arm, a.reported, ...keys.map((k) => a.figures[k]), ...blank, "", "", ""]),
    ...[...new Set(r.deltas.map((d) => d.arm))].map((arm) => {
      const of = (k: string) => r.deltas.find((d) => d.arm === arm && d.metric === k)!;
      return ["delta", "", arm, "", ...keys.map((k) => of(k).delta), ...keys.flatMap((k) => [of(k).interval?.low ?? null, of(k).interval?.high ?? null]), "", "", ""];
    }),
    ["arm_order", "", "", "", ...keys.map(() => ""), ...blank, "", "", r.arm_order.statement],
  ];
  return csvRows([CSV_COLUMNS, ...rows]);
}

export const reportExport = (r: ExperimentReport, format: ReportExportFormat) => (format === "csv" ? reportCsv(r) : JSON.stringify(r, null, 2));
