// Distillation strategy: the configured LLM (prompt in distill-prompt.ts, LLM judge), or the
// deterministic template distiller and judge when no LLM is configured. Either way the
// result passes the same validation gate before anything is stored.
import type { ChatModel } from "../../llm/client";
import { distillInstructions, distillPrompt, type DistillInput } from "./distill-prompt";
import { deterministicJudge, llmJudge } from "./judge";
import { templateDistill, type Distillation } from "./template-distiller";
import { INSUFFICIENT_REASON, validateSkill } from "./validation-gate";

export type Distiller = {
  templateDistilled: boolean;
  /** A document, or a refusal with its reason (an LLM's own INSUFFICIENT is a document the gate rejects). */
  distill(input: DistillInput): Promise<Distillation>;
  judge: (input: DistillInput) => ReturnType<typeof llmJudge>;
};

export function llmDistiller(model: ChatModel): Distiller {
  return {
    templateDistilled: false,
    distill: async (input) => ({ content: await model.complete({ instructions: distillInstructions(input.maxChars), prompt: distillPrompt(input) }) }),
    judge: () => llmJudge(model),
  };
}

export const templateDistiller: Distiller = {
  templateDistilled: true,
  distill: async (input) => templateDistill(input),
  judge: (input) => deterministicJudge(input.toolPath, input.queries),
};

export type DistillResult = { ok: true; content: string } | { ok: false; reasons: string[] };

export async function distillAndValidate(
  distiller: Distiller,
  input: DistillInput,
  toolbox: ReadonlySet<string>,
  toolFields?: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<DistillResult> {
  let distilled: Distillation;
  try {
    distilled = await distiller.distill(input);
  } catch (e) {
    // The error's kind only: provider messages can echo the prompt.
    return { ok: false, reasons: [`distillation failed: ${(e as Error)?.name ?? "error"}`] };
  }
  if ("insufficient" in distilled) return { ok: false, reasons: [`${INSUFFICIENT_REASON}: ${distilled.insufficient}`] };
  const content = distilled.content.trim();
  const verdict = await validateSkill({
    content,
    toolbox,
    toolFields,
    maxChars: input.maxChars,
    successes: input.successes,
    failures: input.failures,
    queries: input.queries,
    judge: distiller.judge(input),
  });
  return verdict.ok ? { ok: true, content } : { ok: false, reasons: verdict.reasons };
}
