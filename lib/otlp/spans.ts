// A span as staged: what the mapping to runs reads of an OTLP span, with OTLP's AnyValues turned
// into plain JSON values and ids into lowercase hex. The same for protobuf and JSON exports.
import { PATH_ID } from "../path-id";

export type Attributes = Record<string, unknown>;
export type SpanEvent = { name: string; timeNs: string; attributes: Attributes };

export type StagedSpan = {
  traceId: string;
  spanId: string;
  /** null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** Unix nanoseconds as decimal text (they exceed 2^53). */
  startNs: string;
  endNs: string;
  /** OTLP Status.code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string | null;
  /** The resource's service.name. */
  serviceName: string | null;
  attributes: Attributes;
  events: SpanEvent[];
};

export const STATUS_OK = 1;
export const STATUS_ERROR = 2;

export const operationOf = (s: StagedSpan) => stringAttr(s.attributes, "gen_ai.operation.name");
export const isInvocation = (s: StagedSpan) => operationOf(s) === "invoke_agent";
export const isToolCall = (s: StagedSpan) => operationOf(s) === "execute_tool";

export function stringAttr(attrs: Attributes, key: string): string | null {
  const v = attrs[key];
  return typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : null;
}

/**
 * The agent a run-making span belongs to: gen_ai.agent.id, else gen_ai.agent.name, else the
 * resource's service.name, made an agent id (characters outside the id rule become "-").
 */
export function agentOf(s: StagedSpan): { id: string; name: string } | null {
  const named = stringAttr(s.attributes, "gen_ai.agent.id") ?? stringAttr(s.attributes, "gen_ai.agent.name") ?? s.serviceName;
  if (!named) return null;
  const id = PATH_ID.test(named) ? named : named.trim().replace(/[^A-Za-z0-9._:-]+/g, "-").slice(0, 128);
  if (!PATH_ID.test(id)) return null;
  return { id, name: (stringAttr(s.attributes, "gen_ai.agent.name") ?? named).slice(0, 200) };
}

/** Events the mapping reads; others are not staged. */
export const keptEvent = (name: string) => name === "exception" || name.startsWith("gen_ai.");
