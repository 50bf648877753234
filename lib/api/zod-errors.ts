import type { z } from "zod";
import { problems } from "./problem";

export function zodProblem(where: string, error: z.ZodError) {
  return problems.validation(
    `The ${where} is invalid.`,
    error.issues.map((i) => ({ path: "/" + i.path.map(String).join("/"), message: i.message })),
  );
}
