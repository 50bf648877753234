// The two judges of the validation gate. The LLM judge fails closed: an error, a timeout or
// an empty answer rejects ("judge unavailable"), and the verdict is the answer's first word,
// exactly YES or NO. Without an LLM, a deterministic judge checks that the procedure follows
// the class's tool path, that every failing tool of the failure samples has a failure mode, and
// that the description and the preconditions name the intent the class's queries share.
import type { ChatModel } from "../../llm/client";
import { JUDGE_INSTRUCTIONS, judgePrompt } from "./distill-prompt";
import { namesIntent, sharedTerms } from "../classes/class-intent";
import { failingTools } from "./sample-run";
import { trimEdges } from "../../text/trim-edges";
import { calledTools, findSection } from "./skill-md";
import type { Judge } from "./validation-gate";

export const JUDGE_UNAVAILABLE = "judge unavailable";

/** YES, NO, or null when the answer does not start with exactly one of them. */
export function judgeVerdict(answer: string): "YES" | "NO" | null {
  const first = trimEdges(answer.trim().split(/\s+/)[0] ?? "", /[.,:;!]/, "end");
  return first === "YES" || first === "NO" ? first : null;
}

export function llmJudge(model: ChatModel): Judge {
  return async (doc, samples) => {
    let answer: string;
    try {
      answer = await model.complete({ instructions: JUDGE_INSTRUCTIONS, prompt: judgePrompt(doc.content, samples.successes, samples.failures) });
    } catch {
      return { ok: false, reasons: [JUDGE_UNAVAILABLE] };
    }
    if (!answer.trim()) return { ok: false, reasons: [JUDGE_UNAVAILABLE] };
    const verdict = judgeVerdict(answer);
    if (verdict === "YES") return { ok: true, reasons: [] };
    const excerpt = answer.trim().slice(0, 200);
    return { ok: false, reasons: [verdict === "NO" ? `LLM judge rejected: ${excerpt}` : `LLM judge gave no YES/NO verdict: ${excerpt}`] };
  };
}

export function deterministicJudge(toolPath: string[], queries: string[]): Judge {
  const { shared } = sharedTerms(queries);
  return async (doc, samples) => {
    const reasons: string[] = [];
    const fm = doc.parsed.frontmatter;
    if (!namesIntent(fm.description, shared)) reasons.push("description is generic: it names no term the class's queries share");
    if (!namesIntent(fm.preconditions.join(". "), shared)) reasons.push("preconditions are generic: they name no term the class's queries share");
    const procedure = findSection(doc.parsed.body, "Procedure");
    const order = procedure ? calledTools(procedure.text) : [];
    if (order.join("\u0000") !== toolPath.join("\u0000")) {
      reasons.push(`procedure tool order (${order.join(" → ") || "none"}) differs from the class's tool path (${toolPath.join(" → ")})`);
    }
    const modes = findSection(doc.parsed.body, "Failure modes observed")?.text ?? "";
    const needed = new Set(samples.failures.flatMap(failingTools));
    for (const tool of needed) if (!modes.includes(`\`${tool}\``)) reasons.push(`no failure mode covers failing tool: ${tool}`);
    return { ok: reasons.length === 0, reasons };
  };
}
