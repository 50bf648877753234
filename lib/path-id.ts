// The one id rule for what callers name from outside: agents, runs, skills, accounts and
// experiments in API paths, record ids in console URLs and actions, and request ids. Ledger
// procedure and case ids have their own, longer rule (lib/ledger/schemas.ts).
import { z } from "zod";

export const PATH_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const pathId = z.string().regex(PATH_ID, "ids are 1-128 characters of A-Z a-z 0-9 . _ : -");
