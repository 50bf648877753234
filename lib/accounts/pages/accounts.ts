// The Accounts page's view model: one keyset page of the accounts seen in runs and conversations,
// filtered by text (`q`), agent and pending suggestion, with the state in the URL (`after`: the
// last account of the page before).
import "server-only";
import type { Db } from "../../db/prisma";
import { ACCOUNT_CURSOR_KEYS, listAccounts } from "../account-list";
import { filterText, param, type SearchParams } from "../../console/url";
import { cursorParam } from "../../console/keyset";

export const ACCOUNTS_PAGE_SIZE = 25;

export async function loadAccountsPage(db: Db, sp: SearchParams) {
  const q = filterText(param(sp, "q"));
  const agent = filterText(param(sp, "agent"));
  const pending = param(sp, "pending") === "1";
  const after = cursorParam(sp, ACCOUNT_CURSOR_KEYS);
  const page = await listAccounts(db, { q, agent, pending, after, pageSize: ACCOUNTS_PAGE_SIZE });
  return { q, agent, pending, first: after === null, ...page, filtered: Boolean(q || agent || pending) };
}
