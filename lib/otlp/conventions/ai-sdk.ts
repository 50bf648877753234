// The Vercel AI SDK's own telemetry (`experimental_telemetry`, AI SDK 6 and earlier; AI SDK 7
// with @ai-sdk/otel writes GenAI spans, ./genai.ts): `ai.operationId` names the span. A
// generateText / streamText / generateObject / streamObject call is the invocation, named by
// `ai.telemetry.functionId`, with its request in `ai.prompt` and its answer in `ai.response.text`;
// each model call (`….doGenerate` / `….doStream`) is a chat span (`ai.prompt.messages`,
// `ai.response.text`, `ai.response.toolCalls`, `ai.prompt.tools`); each `ai.toolCall` a tool call
// (`ai.toolCall.name|id|args|result`). User and thread: ai.telemetry.metadata.* (./shape.ts).
import { stringAttr, type StagedSpan } from "../spans";
import { callsIn, errorOf, shapeWithIdentity, isRecord, jsonish, messagesIn, toolDefinitions, type Role, type Said, type SpanShape } from "./shape";

const INVOCATIONS = new Set(["ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject"]);

const operation = (s: StagedSpan) => stringAttr(s.attributes, "ai.operationId") ?? "";

export const aiSdk = {
  name: "Vercel AI SDK (ai.*)",
  claims: (s: StagedSpan) => stringAttr(s.attributes, "ai.operationId") !== null,
  role(s: StagedSpan): Role {
    const op = operation(s);
    if (INVOCATIONS.has(op)) return "invocation";
    if (op === "ai.toolCall") return "tool";
    return /\.do(Generate|Stream)$/.test(op) ? "chat" : "other";
  },
  agent: (s: StagedSpan) => ({ name: stringAttr(s.attributes, "ai.telemetry.functionId") ?? undefined }),
  read(s: StagedSpan): SpanShape {
    const a = s.attributes;
    const role = aiSdk.role(s);
    const shape: SpanShape = shapeWithIdentity(role, a, errorOf(s));
    const answer = a["ai.response.text"] !== undefined ? messagesIn(a["ai.response.text"], "assistant") : [];
    if (role === "invocation") {
      shape.input = promptOf(a["ai.prompt"]);
      shape.output = answer;
    } else if (role === "chat") {
      shape.input = a["ai.prompt.messages"] !== undefined ? messagesIn(a["ai.prompt.messages"], "user") : [];
      shape.output = answer;
      shape.asked = callsIn(a["ai.response.toolCalls"]);
      shape.priorCalls = callsIn(a["ai.prompt.messages"]).length;
      shape.tools = toolDefinitions(a["ai.prompt.tools"]);
    } else if (role === "tool") {
      const args = a["ai.toolCall.args"] ?? a["ai.toolCall.input"];
      const result = a["ai.toolCall.result"] ?? a["ai.toolCall.output"];
      shape.tool = {
        name: stringAttr(a, "ai.toolCall.name") ?? "",
        callId: stringAttr(a, "ai.toolCall.id") ?? undefined,
        arguments: args === undefined ? undefined : jsonish(args),
        result: result === undefined ? undefined : jsonish(result),
      };
    }
    return shape;
  },
  lacks: (s: StagedSpan) => (aiSdk.role(s) === "tool" && stringAttr(s.attributes, "ai.toolCall.name") === null ? "ai.toolCall span without ai.toolCall.name" : null),
};

/** ai.prompt: `{system?, prompt}` (text or messages) or `{system?, messages}`. */
function promptOf(v: unknown): Said[] {
  const p = jsonish(v);
  if (!isRecord(p)) return messagesIn(p, "user");
  const system: Said[] = typeof p.system === "string" && p.system ? [{ role: "system", text: p.system }] : [];
  return [...system, ...messagesIn(p.messages ?? p.prompt, "user")];
}
