// The Accounts page's view model: one page of the accounts seen in runs and conversations,
// filtered by text (`q`), agent and pending suggestion, with the state in the URL.
import "server-only";
import type { Db } from "../../db/prisma";
import { listAccounts } from "../account-list";
import { filterText, pageParam, param, type SearchParams } from "../../console/url";

export const ACCOUNTS_PAGE_SIZE = 25;

export async function loadAccountsPage(db: Db, sp: SearchParams) {
  const q = filterText(param(sp, "q"));
  const agent = filterText(param(sp, "agent"));
  const pending = param(sp, "pending") === "1";
  const page = pageParam(sp);
  const { rows, total } = await listAccounts(db, { q, agent, pending, page, pageSize: ACCOUNTS_PAGE_SIZE });
  return { q, agent, pending, page, rows, total, filtered: Boolean(q || agent || pending) };
}
