// Decodes an OTLP/HTTP trace export (ExportTraceServiceRequest, protobuf or OTLP JSON) into
// staged spans, with the generated code of the OpenTelemetry project (./wire.ts). A body that is
// not a request at all is a Validation error (400); a span that lacks what staging needs is
// counted as rejected, with its reason, and the rest are kept (OTLP's partial success).
//
// Both encodings become the generated message objects (decode for protobuf, fromObject for JSON)
// and one reader takes what staging needs straight from them: the generated toObject's generic
// conversion (every field, 64-bit integers through Long's text, repeated fields copied) was about
// a fifth of an export's server CPU (`npm run bench:otlp`, docs/benchmarks.md#otlp).
import { Validation } from "../errors";
import { findUnstorableText } from "../db/storable-text";
import { ExportTraceServiceRequest } from "./wire";
import { keptEvent, stringAttr, type Attributes, type SpanEvent, type StagedSpan } from "./spans";
import { unusable } from "./conventions";

export type DecodedExport = { spans: StagedSpan[]; rejected: number; reasons: string[] };

export function decodeProtobuf(bytes: Uint8Array): DecodedExport {
  let message: object;
  try {
    message = ExportTraceServiceRequest.decode(bytes);
  } catch (e) {
    throw new Validation(`The body is not a protobuf ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return fromRequest(message as PbRequest);
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
  return fromRequest(message as PbRequest);
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

// The generated message objects as decode and fromObject leave them: a field not on the wire is
// the prototype's null (repeated ones an empty array); 64-bit integers are Long objects (a number
// when protobufjs runs without the long package); bytes are Buffers or Uint8Arrays.
type Int64 = number | { low: number; high: number; toNumber(): number; toString(): string };
type PbKeyValue = { key: string | null; value: PbAnyValue | null };
type PbAnyValue = {
  stringValue: string | null;
  boolValue: boolean | null;
  intValue: Int64 | null;
  doubleValue: number | null;
  arrayValue: { values: PbAnyValue[] } | null;
  kvlistValue: { values: PbKeyValue[] } | null;
  bytesValue: Uint8Array | null;
};
type PbEvent = { timeUnixNano: Int64 | null; name: string | null; attributes: PbKeyValue[] };
type PbSpan = {
  traceId: Uint8Array | null;
  spanId: Uint8Array | null;
  parentSpanId: Uint8Array | null;
  name: string | null;
  startTimeUnixNano: Int64 | null;
  endTimeUnixNano: Int64 | null;
  attributes: PbKeyValue[];
  events: PbEvent[];
  status: { code: number | null; message: string | null } | null;
};
type PbRequest = { resourceSpans: { resource: { attributes: PbKeyValue[] } | null; scopeSpans: { spans: PbSpan[] }[] }[] };

const bufferOf = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * Characters that may make text unstorable (a NUL, a surrogate: ../db/storable-text.ts decides),
 * noted while the span's text is read, so that the exact check runs only on the spans that hold
 * one: one scan of a character class instead of a second walk with the exact patterns.
 */
const SUSPECT = /[\0\uD800-\uDFFF]/;
let suspect = false;
const seen = (text: string) => {
  if (!suspect && SUSPECT.test(text)) suspect = true;
  return text;
};

function plain(v: PbAnyValue | null): unknown {
  if (!v) return null;
  if (v.stringValue != null) return seen(v.stringValue);
  if (v.boolValue != null) return v.boolValue;
  if (v.intValue != null) {
    if (typeof v.intValue === "number") return v.intValue;
    const n = v.intValue.toNumber();
    return Number.isSafeInteger(n) ? n : v.intValue.toString();
  }
  if (v.doubleValue != null) return v.doubleValue;
  if (v.arrayValue) return v.arrayValue.values.map(plain);
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values);
  if (v.bytesValue) return bufferOf(v.bytesValue).toString("base64");
  return null;
}

function attributesOf(list: PbKeyValue[]): Attributes {
  const out: Attributes = {};
  for (let i = 0; i < list.length; i++) {
    const kv = list[i];
    // "__proto__" would set the object's prototype instead of an attribute.
    if (kv.key && kv.key !== "__proto__") out[seen(kv.key)] = plain(kv.value);
  }
  return out;
}

const TWO_POW_32 = 4294967296;
/**
 * Unix nanoseconds (fixed64) as decimal text, or null when the staging table's bigint cannot hold
 * them (zero, or beyond int64).
 */
function nanos(v: Int64 | null): string | null {
  if (v == null) return null;
  if (typeof v === "number") return Number.isSafeInteger(v) && v > 0 ? String(v) : null;
  const high = v.high >>> 0;
  const low = v.low >>> 0;
  if (high > 0x7fffffff || (high === 0 && low === 0)) return null;
  // Below 2^53 a double is exact; above, BigInt.
  return high < 0x200000 ? String(high * TWO_POW_32 + low) : ((BigInt(high) << 32n) | BigInt(low)).toString();
}

const hexOf = (b: Uint8Array | null) => (b && b.length > 0 ? bufferOf(b).toString("hex") : "");
const ZERO = /^0+$/;

function fromRequest(request: PbRequest): DecodedExport {
  const spans: StagedSpan[] = [];
  const reasons = new Map<string, number>();
  let rejected = 0;
  for (const rs of request.resourceSpans) {
    suspect = false;
    const serviceName = rs.resource ? stringAttr(attributesOf(rs.resource.attributes), "service.name") : null;
    const resourceSuspect = suspect;
    for (const ss of rs.scopeSpans)
      for (const w of ss.spans) {
        suspect = resourceSuspect;
        const span = stagedSpan(w, serviceName);
        const why = typeof span === "string" ? span : refusal(span);
        if (why) {
          rejected++;
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
        } else spans.push(span as StagedSpan);
      }
  }
  const list = [...reasons].map(([why, n]) => `${n} span${n === 1 ? "" : "s"}: ${why}`);
  return { spans, rejected, reasons: list };
}

function stagedSpan(w: PbSpan, serviceName: string | null): StagedSpan | string {
  const traceId = hexOf(w.traceId);
  const spanId = hexOf(w.spanId);
  if (traceId.length !== 32 || ZERO.test(traceId)) return "no valid traceId (16 bytes)";
  if (spanId.length !== 16 || ZERO.test(spanId)) return "no valid spanId (8 bytes)";
  const parent = hexOf(w.parentSpanId);
  const startNs = nanos(w.startTimeUnixNano);
  if (startNs === null) return "no startTimeUnixNano (positive, within int64)";
  const code = w.status?.code;
  const events: SpanEvent[] = [];
  for (const e of w.events) if (e.name && keptEvent(e.name)) events.push({ name: seen(e.name), timeNs: nanos(e.timeUnixNano) ?? "0", attributes: attributesOf(e.attributes) });
  return {
    traceId,
    spanId,
    parentSpanId: parent && !ZERO.test(parent) ? parent : null,
    name: seen(w.name ?? ""),
    startNs,
    endNs: nanos(w.endTimeUnixNano) ?? startNs,
    // An unknown status code counts as unset.
    statusCode: code === 1 || code === 2 ? code : 0,
    statusMessage: w.status?.message ? seen(w.status.message) : null,
    serviceName,
    attributes: attributesOf(w.attributes),
    events,
  };
}

/**
 * What makes a well-formed span unusable: the attributes its role requires, text Postgres cannot
 * store (checked only when reading the span noted a suspect character), nesting deeper than
 * stored JSON may be (always checked: a walk of the objects alone).
 */
function refusal(s: StagedSpan): string | null {
  const lacks = unusable(s);
  if (lacks) return lacks;
  const problem = findUnstorableText([s.name, s.statusMessage, s.serviceName, s.attributes, s.events], "", 0, suspect);
  if (problem) return problem.message.startsWith("nesting") ? problem.message : "holds text that cannot be stored (NUL or lone surrogates)";
  return null;
}
