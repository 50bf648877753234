// A span as staged: what the mapping to runs reads of an OTLP span, with OTLP's AnyValues turned
// into plain JSON values and ids into lowercase hex. The same for protobuf and JSON exports. What
// a span is (invocation, tool call…) and which agent it names depend on its convention:
// ./conventions.
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

export function stringAttr(attrs: Attributes, key: string): string | null {
  const v = attrs[key];
  return typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : null;
}

/** Events the mapping reads; others are not staged. */
export const keptEvent = (name: string) => name === "exception" || name.startsWith("gen_ai.");

/** Spans refused, counted per reason, as an export's answer lists them (partialSuccess.errorMessage): `<n> span(s): <why>`. */
export const countedReasons = (reasons: ReadonlyMap<string, number>) => [...reasons].map(([why, n]) => `${n} span${n === 1 ? "" : "s"}: ${why}`);
