import type { z } from "zod";
import { problems } from "./problem";

/** A validation problem listing every issue; paths under the key `within` are given relative to it. */
export function zodProblem(where: string, error: z.ZodError, within?: string) {
  return problems.validation(
    `The ${where} is invalid.`,
    error.issues.map((i) => {
      const path = within !== undefined && i.path[0] === within ? i.path.slice(1) : i.path;
      return { path: "/" + path.map(String).join("/"), message: i.message };
    }),
  );
}
