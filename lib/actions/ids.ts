import { z } from "zod";

/** A user or API key id as the console sends it back. */
export const consoleId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);
