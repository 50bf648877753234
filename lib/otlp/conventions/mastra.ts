// Mastra's OpenTelemetry exporter (@mastra/otel-exporter) writes GenAI spans (./genai.ts reads
// them) and keeps what GenAI has no attribute for in mastra.* attributes: an agent run's request
// and answer (mastra.agent_run.input / .output: its chat spans carry no input messages), and each
// model step's index and the tool calls it asked for (mastra.model_step.step_index / .output).
// Its account and thread are mastra.metadata.resourceId / .threadId (./shape.ts USER_KEYS).
import type { StagedSpan } from "../spans";
import { callsIn, isRecord, jsonish, messagesIn, type AskedCall, type Said } from "./shape";

export function mastraInvocation(s: StagedSpan): { input?: Said[]; output?: Said[] } {
  const a = s.attributes;
  const output = jsonish(a["mastra.agent_run.output"] ?? a["mastra.workflow_run.output"]);
  return {
    input: a["mastra.agent_run.input"] !== undefined ? messagesIn(a["mastra.agent_run.input"], "user") : undefined,
    output: isRecord(output) && typeof output.text === "string" ? messagesIn(output.text, "assistant") : undefined,
  };
}

export function mastraStep(s: StagedSpan): { stepIndex?: number; asked: AskedCall[] } {
  const a = s.attributes;
  const index = a["mastra.model_step.step_index"];
  const output = jsonish(a["mastra.model_step.output"]);
  return {
    stepIndex: typeof index === "number" ? index : undefined,
    asked: isRecord(output) ? callsIn(output.toolCalls) : [],
  };
}
