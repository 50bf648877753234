// One ledger procedure's page: the record, its qualification series and a page of its
// evaluations with the runs their run:/trace: evidence names; null when the scope or id cannot name a procedure or none exists.
import "server-only";
import type { Db } from "../../db/prisma";
import { pageParam, param, type SearchParams } from "../../console/url";
import { failedGates } from "../arithmetic";
import { listEvaluations, qualificationSeries } from "../console";
import { isLedgerError } from "../errors";
import { evidenceRuns } from "../evidence";
import { getProcedure } from "../read";

export async function loadProcedurePage(db: Db, sp: SearchParams) {
  const scope = { tenant: param(sp, "tenant") ?? "", agent: param(sp, "agent") ?? "", environment: param(sp, "environment") ?? "" };
  const id = param(sp, "id") ?? "";
  const page = pageParam(sp);
  const record = await getProcedure(db, scope, id).catch((e) => {
    if (isLedgerError(e, "ValidationError")) return null;
    throw e;
  });
  if (!record) return null;
  const [series, evaluations] = await Promise.all([qualificationSeries(db, scope, id, record.proposal.policy.confidence_delta), listEvaluations(db, scope, id, page)]);
  const evidence = await evidenceRuns(db, scope, evaluations.rows.map((r) => r.evaluation.evidence_ref));
  return { scope, id, page, record, series, evaluations, evidence, failedGates: record.state === "rejected" ? failedGates(record) : [] };
}
