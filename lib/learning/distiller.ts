// Distillation strategy: the configured LLM (prompt per reference §2.7, LLM judge), or the
// deterministic template distiller and judge when no LLM is configured. Either way the
// result passes the same validation gate before anything is stored.
import type { ChatModel } from "../llm/client";
import { distillInstructions, distillPrompt, type DistillInput } from "./distill-prompt";
import { deterministicJudge, llmJudge } from "./judge";
import { templateDistill } from "./template-distiller";
import { validateSkill } from "./validation";

export type Distiller = {
  templateDistilled: boolean;
  distill(input: DistillInput): Promise<string>;
  judge: (toolPath: string[]) => ReturnType<typeof llmJudge>;
};

export function llmDistiller(model: ChatModel): Distiller {
  return {
    templateDistilled: false,
    distill: (input) => model.complete({ instructions: distillInstructions(input.maxChars), prompt: distillPrompt(input) }),
    judge: () => llmJudge(model),
  };
}

export const templateDistiller: Distiller = {
  templateDistilled: true,
  distill: async (input) => templateDistill(input),
  judge: deterministicJudge,
};

export type DistillResult = { ok: true; content: string } | { ok: false; reasons: string[] };

export async function distillAndValidate(
  distiller: Distiller,
  input: DistillInput,
  toolbox: ReadonlySet<string>,
  toolFields?: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<DistillResult> {
  let content: string;
  try {
    content = (await distiller.distill(input)).trim();
  } catch (e) {
    // The error's kind only: provider messages can echo the prompt.
    return { ok: false, reasons: [`distillation failed: ${(e as Error)?.name ?? "error"}`] };
  }
  const verdict = await validateSkill({
    content,
    toolbox,
    toolFields,
    maxChars: input.maxChars,
    successes: input.successes,
    failures: input.failures,
    judge: distiller.judge(input.toolPath),
  });
  return verdict.ok ? { ok: true, content } : { ok: false, reasons: verdict.reasons };
}
