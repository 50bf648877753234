// The outcome label an agent reports: the true outcome through a judge that flips it at a
// stated rate. In a family with a lenient judge (a planted harm) the judge cannot tell and says
// "success" at that family's rate, so a wrong procedure there looks as good as the right one.
// A run that ended on a failed tool call needs no judge: the ingestion sees the failed step.
import { draw, type Request, type World } from "./world.ts";
import type { Attempt } from "./model.ts";

export const JUDGE_FLIP_RATE = 0.1;
export const LENIENT_SUCCESS_RATE = 0.9;

export function judged(world: World, request: Request, attempt: Attempt): "success" | "failure" | undefined {
  if (attempt.toolFailed) return undefined;
  const u = draw(world.seed, request.key, "judge");
  if (request.family.lenientJudge) return u < LENIENT_SUCCESS_RATE ? "success" : "failure";
  const flipped = u < JUDGE_FLIP_RATE;
  return attempt.success !== flipped ? "success" : "failure";
}
