// Ids that appear in URL paths (agents, accounts, workflows): one rule for the agent API and
// the domains that name their own path parameters.
import { z } from "zod";

export const PATH_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const pathId = z.string().regex(PATH_ID, "ids are 1-128 characters of A-Z a-z 0-9 . _ : -");
