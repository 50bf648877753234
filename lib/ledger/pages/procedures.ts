// The evidence ledger page: a filtered page of procedures.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { listProcedures, procedureListQuery } from "../console";

export async function loadProceduresPage(db: Db, sp: SearchParams) {
  const q = procedureListQuery.parse(sp);
  const { rows, total } = await listProcedures(db, q);
  return { q, rows, total, filtered: Boolean(q.tenant || q.agent || q.environment || q.task || q.state) };
}
