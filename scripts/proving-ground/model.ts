// The simulated model. Without a skill it solves a family with the family's base rate (it picks
// the procedure right for the account), otherwise it falls back to its habit or a scrambled
// attempt. Given skills, it reads the text it received: the first numbered procedure written in
// it ("1. Call `tool` …", the tool names in order) is what it follows, with a compliance rate.
// It never sees which skill is helpful: only the text decides. Tool calls fail transiently;
// a failed call is retried once.
import { draw, trueProcedure, type Request, type World } from "./world.ts";

export const COMPLIANCE = 0.9;
export const TOOL_ERROR_RATE = 0.02;
export const RETRY_SUCCESS_RATE = 0.7;

export type Step = { tool: string; arguments: Record<string, string>; result?: Record<string, unknown>; error?: { type: string; message: string } };
export type Attempt = { steps: Step[]; followedSkill: boolean; success: boolean; toolFailed: boolean };

/** The tool names of the first numbered procedure in a text, in order ([] when it has none). */
export function procedureInText(text: string): string[] {
  const tools: string[] = [];
  let started = false;
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*\d+\.\s+Call `([A-Za-z0-9_.-]+)`/);
    if (m) {
      tools.push(m[1]);
      started = true;
    } else if (started && line.trim() !== "") break;
  }
  return tools;
}

function argumentsFor(tool: string, request: Request, id: string): Record<string, string> {
  if (tool === "verify_identity") return { account_id: request.account.id };
  if (tool === "notify_customer" || tool === "add_note") return { account_id: request.account.id, text: `about ${id}` };
  return { [`${request.family.noun}_id`]: id };
}

/** What the model does for a request, given the injected text (null: no skill). `key` names its random draws. */
export function act(world: World, request: Request, round: number, injected: string | null, key = request.key): Attempt {
  const { seed } = world;
  const { family } = request;
  const followed = injected ? procedureInText(injected) : [];
  const follow = followed.length > 0 && draw(seed, key, "comply") < COMPLIANCE;
  let plan: string[];
  if (follow) plan = followed;
  else if (draw(seed, key, "unaided") < family.base) plan = trueProcedure(family, request.account, round);
  else if (draw(seed, key, "habit") < 0.75) plan = family.habit;
  else {
    // A scrambled attempt: the right tools, two of them swapped.
    const right = trueProcedure(family, request.account, round);
    const i = Math.floor(draw(seed, key, "swap") * Math.max(1, right.length - 1));
    plan = right.map((t, j) => (j === i ? right[i + 1] ?? t : j === i + 1 ? right[i] : t));
  }
  const id = request.query.match(/[A-Z]\d{5}/)?.[0] ?? "X";
  const steps: Step[] = [];
  let toolFailed = false;
  for (const [n, tool] of plan.entries()) {
    const args = argumentsFor(tool, request, id);
    if (draw(seed, key, "tool-error", n) < TOOL_ERROR_RATE) {
      steps.push({ tool, arguments: args, error: { type: "TimeoutError", message: "the tool timed out" } });
      if (draw(seed, key, "retry", n) >= RETRY_SUCCESS_RATE) {
        toolFailed = true;
        break;
      }
    }
    steps.push({ tool, arguments: args, result: { ok: true } });
  }
  const right = trueProcedure(family, request.account, round);
  const success = !toolFailed && plan.length === right.length && plan.every((t, i) => t === right[i]);
  return { steps, followedSkill: follow, success, toolFailed };
}

/** The expected true success of following `procedure` (or none) for a family's accounts in a round. */
export function expectedSuccess(world: World, familyIndex: number, round: number, procedure: string[] | null): number {
  const family = world.families[familyIndex];
  const clean = (1 - TOOL_ERROR_RATE * (1 - RETRY_SUCCESS_RATE)) ** 3;
  let total = 0;
  for (const account of [{ id: "", legacy: false }, { id: "", legacy: true }]) {
    const weight = family.legacyProcedure ? (account.legacy ? 0.3 : 0.7) : account.legacy ? 0 : 1;
    if (weight === 0) continue;
    const right = trueProcedure(family, account, round);
    const matches = procedure !== null && procedure.length === right.length && procedure.every((t, i) => t === right[i]);
    const unaided = family.base;
    const p = procedure && procedure.length ? COMPLIANCE * (matches ? 1 : 0) + (1 - COMPLIANCE) * unaided : unaided;
    total += weight * p * clean;
  }
  return total;
}
