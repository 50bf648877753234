// Console: an experiment's report as a CSV or JSON download (experiments:read).
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { experimentParams } from "@/lib/experiments/schemas";
import { experimentReport } from "@/lib/experiments/report";
import { reportExport, reportExportMediaType, reportExportQuery } from "@/lib/experiments/export";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "experiments:read", params: experimentParams, query: reportExportQuery }, async ({ params, query }) => {
  const report = await experimentReport(db(), params.experiment_id);
  return new Response(reportExport(report, query.format), {
    headers: {
      "content-type": reportExportMediaType(query.format),
      "cache-control": "no-store",
      "content-disposition": `attachment; filename="${params.experiment_id}.${query.format}"`,
    },
  });
});
