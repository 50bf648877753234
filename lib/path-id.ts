// The id rule for agents, runs, skills and accounts wherever they are named from outside (api.md:
// ids in paths). Ledger procedure and case ids have their own rule (lib/ledger/schemas.ts).
import { z } from "zod";

export const PATH_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const pathId = z.string().regex(PATH_ID, "ids are 1-128 characters of A-Z a-z 0-9 . _ : -");
