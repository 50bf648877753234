// Which telemetry convention a span is written in, and so what it is (an agent invocation, a
// tool call, a chat call, structure) and what it says (./shape.ts). One priority decides for a
// span that carries several conventions' attributes, the first that claims it:
//   1. OpenTelemetry GenAI: gen_ai.operation.name (with the dialects of Strands, AI SDK 7 and Mastra)
//   2. OpenInference: openinference.span.kind
//   3. Vercel AI SDK: ai.operationId
//   4. GenAI without an operation name: gen_ai.tool.name (a tool call), an `agent run` /
//      `invoke_agent …` span with gen_ai.agent.name (Pydantic AI)
// A span none claims is structure: it joins a run as a descendant and says nothing.
// README "OpenTelemetry ingestion" documents the same order.
import { PATH_ID } from "../../path-id";
import type { StagedSpan } from "../spans";
import { aiSdk } from "./ai-sdk";
import { genai, genaiUnnamed } from "./genai";
import { openInference } from "./openinference";
import { emptyShape, type Role, type SpanShape } from "./shape";

export type { AskedCall, ObservedTool, Said, SpanShape, StepError } from "./shape";

type Convention = {
  name: string;
  claims(s: StagedSpan): boolean;
  role(s: StagedSpan): Role;
  agent(s: StagedSpan): { id?: string; name?: string };
  read(s: StagedSpan): SpanShape;
  /** The attribute a span of its role needs and lacks, in words; null when it has what it needs. */
  lacks?(s: StagedSpan): string | null;
};

export const CONVENTIONS: readonly Convention[] = [genai, openInference, aiSdk, genaiUnnamed];

/**
 * Agent ids and names the frameworks write when the user set none: they name no agent, so the
 * next source decides. Ids: Strands TS "agent", Strands Python "default". Names: Pydantic AI's
 * "agent", Strands Python's "Strands Agents".
 */
export const DEFAULT_AGENT_IDS: ReadonlySet<string> = new Set(["agent", "default"]);
export const DEFAULT_AGENT_NAMES: ReadonlySet<string> = new Set(["agent", "Strands Agents"]);

// Not cached per span: a claim is a lookup or two, cheaper than a WeakMap entry per span, whose
// ephemerons the collector walks (`npm run bench:otlp`, docs/benchmarks.md#otlp).
export function conventionOf(s: StagedSpan): Convention | null {
  for (const c of CONVENTIONS) if (c.claims(s)) return c;
  return null;
}

export const roleOf = (s: StagedSpan): Role => conventionOf(s)?.role(s) ?? "other";
export const isInvocation = (s: StagedSpan) => roleOf(s) === "invocation";
export const isToolCall = (s: StagedSpan) => roleOf(s) === "tool";

/** Why a span cannot take the role its convention gives it (an agent invocation naming no agent, a tool call naming no tool), or null. */
export function unusable(s: StagedSpan): string | null {
  if (isInvocation(s) && !agentOf(s)) return `agent invocation span (${conventionOf(s)!.name}) without an agent name or service.name`;
  return conventionOf(s)?.lacks?.(s) ?? null;
}

/** What the span says (the mapping reads each span once and keeps its shape only while it maps the trace). */
export const shapeOf = (s: StagedSpan): SpanShape => conventionOf(s)?.read(s) ?? emptyShape("other");

/** The agent a span names itself: an explicit id that is not a framework default, and the framework's agent name (not a default). */
export function namedAgent(s: StagedSpan): { id?: string; name?: string } {
  const named = conventionOf(s)?.agent(s) ?? {};
  return {
    id: named.id && !DEFAULT_AGENT_IDS.has(named.id) ? named.id : undefined,
    name: named.name && !DEFAULT_AGENT_NAMES.has(named.name) ? named.name : undefined,
  };
}

/**
 * The Proctor agent of a run-making span: the explicit id, else the framework's agent name, else
 * the resource's service.name, made an agent id (characters outside the id rule become "-").
 * `named` may come from another span of the run (a root that names none).
 */
export function agentOf(s: StagedSpan, named: { id?: string; name?: string } = namedAgent(s)): { id: string; name: string } | null {
  const chosen = named.id ?? named.name ?? s.serviceName;
  if (!chosen) return null;
  const id = PATH_ID.test(chosen) ? chosen : chosen.trim().replace(/[^A-Za-z0-9._:-]+/g, "-").slice(0, 128);
  if (!PATH_ID.test(id)) return null;
  return { id, name: (named.name ?? chosen).slice(0, 200) };
}
