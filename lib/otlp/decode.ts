// Decodes an OTLP/HTTP trace export (ExportTraceServiceRequest, protobuf or OTLP JSON) into
// staged spans, with the generated code of the OpenTelemetry project (./wire.ts). A body that is
// not a request at all is a Validation error (400); a span that lacks what staging needs is
// counted as rejected, with its reason, and the rest are kept (OTLP's partial success).
import { Validation } from "../errors";
import { findUnstorableText } from "../db/storable-text";
import { ExportTraceServiceRequest, READ_OPTIONS } from "./wire";
import { keptEvent, stringAttr, type Attributes, type StagedSpan } from "./spans";
import { unusable } from "./conventions";

export type DecodedExport = { spans: StagedSpan[]; rejected: number; reasons: string[] };

export function decodeProtobuf(bytes: Uint8Array): DecodedExport {
  let message: object;
  try {
    message = ExportTraceServiceRequest.decode(bytes);
  } catch (e) {
    throw new Validation(`The body is not a protobuf ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return fromRequest(ExportTraceServiceRequest.toObject(message, READ_OPTIONS) as WireRequest);
}

/** OTLP JSON: the protobuf JSON mapping with lowerCamelCase names, ids in hex, 64-bit integers as text. */
export function decodeJson(bytes: Uint8Array): DecodedExport {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw new Validation(`The body is not valid JSON in UTF-8: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Validation("The body is not an ExportTraceServiceRequest object.");
  hexIdsToBytes(value as Record<string, unknown>);
  let message: object;
  try {
    message = ExportTraceServiceRequest.fromObject(value);
  } catch (e) {
    throw new Validation(`The body is not an ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return fromRequest(ExportTraceServiceRequest.toObject(message, READ_OPTIONS) as WireRequest);
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const ID_FIELDS = ["traceId", "spanId", "parentSpanId"] as const;

/** The protobuf JSON mapping reads bytes as base64; OTLP JSON writes trace and span ids in hex. */
function hexIdsToBytes(request: Loose) {
  for (const rs of objectsIn(request.resourceSpans))
    for (const ss of objectsIn(rs.scopeSpans))
      for (const span of objectsIn(ss.spans))
        for (const t of [span, ...objectsIn(span.links)])
          for (const f of ID_FIELDS) {
            const v = t[f];
            // Not hex: no id (the span is rejected for it below).
            if (typeof v === "string") t[f] = HEX.test(v) ? Buffer.from(v, "hex") : new Uint8Array();
          }
}

/** JSON not yet checked against the message type. */
type Loose = Record<string, unknown>;
const objectsIn = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter((x): x is Loose => typeof x === "object" && x !== null) : []);

type KeyValue = { key?: string; value?: AnyValue };
type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: number[];
};

function plain(v: AnyValue | undefined): unknown {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : v.intValue;
  }
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plain);
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values);
  if (v.bytesValue) return Buffer.from(v.bytesValue).toString("base64");
  return null;
}

function attributesOf(list: KeyValue[] | undefined): Attributes {
  const out: Attributes = {};
  for (const kv of list ?? []) if (kv.key) out[kv.key] = plain(kv.value);
  return out;
}

const INT64_MAX = 2n ** 63n - 1n;
/** Unix nanoseconds the staging table's bigint holds (fixed64 on the wire may exceed it). */
const nanos = (v: string | undefined) => v !== undefined && /^[1-9]\d{0,18}$/.test(v) && BigInt(v) <= INT64_MAX;

const hexOf = (b: unknown) => (Array.isArray(b) && b.length > 0 ? Buffer.from(b).toString("hex") : "");
const ZERO = /^0+$/;

type WireSpan = {
  traceId?: number[];
  spanId?: number[];
  parentSpanId?: number[];
  name?: string;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: KeyValue[];
  events?: { timeUnixNano?: string; name?: string; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
};
/** What the generated code's toObject gives with READ_OPTIONS (repeated fields as arrays). */
type WireRequest = { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: WireSpan[] }[] }[] };

function fromRequest(request: WireRequest): DecodedExport {
  const spans: StagedSpan[] = [];
  const reasons = new Map<string, number>();
  let rejected = 0;
  const reject = (why: string) => {
    rejected++;
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  };
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    const serviceName = stringAttr(resource, "service.name");
    for (const ss of rs.scopeSpans ?? [])
      for (const w of ss.spans ?? []) {
        const span = stagedSpan(w, serviceName);
        const why = typeof span === "string" ? span : refusal(span);
        if (why) reject(why);
        else spans.push(span as StagedSpan);
      }
  }
  const list = [...reasons].map(([why, n]) => `${n} span${n === 1 ? "" : "s"}: ${why}`);
  return { spans, rejected, reasons: list };
}

function stagedSpan(w: WireSpan, serviceName: string | null): StagedSpan | string {
  const traceId = hexOf(w.traceId);
  const spanId = hexOf(w.spanId);
  if (traceId.length !== 32 || ZERO.test(traceId)) return "no valid traceId (16 bytes)";
  if (spanId.length !== 16 || ZERO.test(spanId)) return "no valid spanId (8 bytes)";
  const parent = hexOf(w.parentSpanId);
  if (!nanos(w.startTimeUnixNano)) return "no startTimeUnixNano (positive, within int64)";
  const code = w.status?.code;
  return {
    traceId,
    spanId,
    parentSpanId: parent && !ZERO.test(parent) ? parent : null,
    name: w.name ?? "",
    startNs: w.startTimeUnixNano!,
    endNs: nanos(w.endTimeUnixNano) ? w.endTimeUnixNano! : w.startTimeUnixNano!,
    // An unknown status code counts as unset.
    statusCode: code === 1 || code === 2 ? code : 0,
    statusMessage: w.status?.message || null,
    serviceName,
    attributes: attributesOf(w.attributes),
    events: (w.events ?? [])
      .filter((e) => e.name && keptEvent(e.name))
      .map((e) => ({ name: e.name!, timeNs: e.timeUnixNano ?? "0", attributes: attributesOf(e.attributes) })),
  };
}

/** What makes a well-formed span unusable: the attributes its role requires, text Postgres cannot store. */
function refusal(s: StagedSpan): string | null {
  const lacks = unusable(s);
  if (lacks) return lacks;
  if (findUnstorableText([s.name, s.statusMessage, s.attributes, s.events])) return "holds text that cannot be stored (NUL or lone surrogates)";
  return null;
}
