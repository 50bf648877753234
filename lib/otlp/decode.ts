// Decodes an OTLP/HTTP trace export (ExportTraceServiceRequest, protobuf or OTLP JSON) into
// staged spans, with the generated code of the OpenTelemetry project (./wire.ts). A body that is
// not a request at all is a Validation error (400), one holding more spans than an export may a
// TooLarge (413); a span that lacks what staging needs, or exceeds a per-span limit
// (./limits.ts), is counted as rejected, with its reason, and the rest are kept (OTLP's partial
// success).
//
// One span at a time: protobuf is read field by field down to the spans, each decoded with the
// generated Span message and turned into a staged span before the next (the whole request's
// messages were several times the body in memory), and so is each span of a JSON export; a span
// whose message cannot be built (nesting beyond the stack) is refused alone. Reading straight
// from the generated messages, without toObject, keeps the CPU down (`npm run bench:otlp`,
// docs/benchmarks.md#otlp).
import protobuf from "protobufjs/light.js";
import { TooLarge, Validation } from "../errors";
import { findUnstorableText, MAX_JSON_DEPTH } from "../db/storable-text";
import { ExportTraceServiceRequest, Resource, Span } from "./wire";
import { countedReasons, keptEvent, stringAttr, type Attributes, type SpanEvent, type StagedSpan } from "./spans";
import { unusable } from "./conventions";
import { MAX_ATTRIBUTE_VALUE_BYTES, MAX_ATTRIBUTES_PER_EXPORT, MAX_ATTRIBUTES_PER_SPAN, MAX_EVENTS_PER_SPAN, MAX_SPANS_PER_EXPORT } from "./limits";

export type DecodedExport = { spans: StagedSpan[]; rejected: number; reasons: string[] };

const tooManySpans = (n: string) =>
  new TooLarge(`An export may hold at most ${MAX_SPANS_PER_EXPORT} spans; this one holds ${n} (lower the exporter's batch size, e.g. OTEL_BSP_MAX_EXPORT_BATCH_SIZE).`);

const tooManyAttributes = () =>
  new TooLarge(`An export may hold at most ${MAX_ATTRIBUTES_PER_EXPORT} attributes (map entries included) in all (lower the exporter's batch size).`);
/** Attributes the export being read may still hold (reset per export; decoding is synchronous). */
let attributesLeft = 0;

/** Wire types and field numbers of the messages read by hand (opentelemetry/proto/trace/v1/trace.proto). */
const LEN = 2;
const RESOURCE_SPANS = 1; // ExportTraceServiceRequest.resource_spans
const RESOURCE = 1; // ResourceSpans.resource
const SCOPE_SPANS = 2; // ResourceSpans.scope_spans
const SPANS = 2; // ScopeSpans.spans

export function decodeProtobuf(bytes: Uint8Array): DecodedExport {
  const out = new Collector();
  attributesLeft = MAX_ATTRIBUTES_PER_EXPORT;
  try {
    // A Buffer view of the same bytes (no copy): protobufjs then reads strings with Node's own
    // UTF-8 decoder, where a plain Uint8Array gets its JavaScript one, which built every string
    // from arrays of char codes: two thirds of what staging allocated (`npm run bench:otlp`).
    // Node's decoder also never yields a lone surrogate (invalid UTF-8 becomes U+FFFD).
    const r = protobuf.Reader.create(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    eachField(r, r.len, RESOURCE_SPANS, (rsEnd) => {
      let serviceName: string | null = null;
      let resourceSuspect = false;
      eachField(r, rsEnd, -1, (end, field) => {
        if (field === RESOURCE) {
          suspect = false;
          serviceName = serviceNameOf((Resource.decode(r, end - r.pos) as PbResource).attributes);
          resourceSuspect = suspect;
        } else if (field === SCOPE_SPANS)
          eachField(r, end, SPANS, (spanEnd) => {
            if (out.seen++ >= MAX_SPANS_PER_EXPORT) throw tooManySpans(`more`);
            let w: PbSpan;
            try {
              w = Span.decode(r, spanEnd - r.pos) as PbSpan;
            } catch (e) {
              if (!(e instanceof RangeError) || !/call stack/.test(e.message)) throw e;
              r.pos = spanEnd;
              return out.refuse(TOO_DEEP);
            }
            out.add(w, serviceName, resourceSuspect);
          });
      });
    });
  } catch (e) {
    if (e instanceof TooLarge) throw e;
    throw new Validation(`The body is not a protobuf ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return out.result();
}

/**
 * Calls `read(end, field)` for each length-delimited field `only` (any, when -1) of the message
 * ending at `end`, the reader at the field's first byte; skips the rest. `read` must leave the
 * reader at `end` (or not move it: it is then skipped).
 */
function eachField(r: protobuf.Reader, end: number, only: number, read: (end: number, field: number) => void) {
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if ((tag & 7) !== LEN || (only !== -1 && field !== only)) {
      r.skipType(tag & 7);
      continue;
    }
    const fieldEnd = r.uint32() + r.pos;
    if (fieldEnd > end) throw new Error("a field runs past its message");
    read(fieldEnd, field);
    r.pos = fieldEnd;
  }
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
  // The request without its spans is checked whole against the message type; then its spans
  // are read one at a time, each span's JSON let go once read.
  const lists: Loose[][] = [];
  let count = 0;
  for (const rs of objectsIn((value as Loose).resourceSpans)) {
    const own: Loose[] = [];
    for (const ss of objectsIn(rs.scopeSpans)) {
      if (Array.isArray(ss.spans)) own.push(...(ss.spans as Loose[]));
      ss.spans = [];
    }
    count += own.length;
    lists.push(own);
  }
  if (count > MAX_SPANS_PER_EXPORT) throw tooManySpans(String(count));
  let request: { resourceSpans: { resource: PbResource | null }[] };
  try {
    request = ExportTraceServiceRequest.fromObject(value) as typeof request;
  } catch (e) {
    throw new Validation(`The body is not an ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  const out = new Collector();
  attributesLeft = MAX_ATTRIBUTES_PER_EXPORT;
  request.resourceSpans.forEach((rs, k) => {
    suspect = false;
    const serviceName = rs.resource ? serviceNameOf(rs.resource.attributes) : null;
    const resourceSuspect = suspect;
    const spans = lists[k];
    for (let i = 0; i < spans.length; i++) {
      let w: PbSpan;
      try {
        if (typeof spans[i] === "object" && spans[i] !== null) hexIdsToBytes(spans[i]);
        w = Span.fromObject(spans[i]) as PbSpan;
      } catch (e) {
        if (e instanceof RangeError && /call stack/.test(e.message)) {
          out.refuse(TOO_DEEP);
          continue;
        }
        throw new Validation(`The body is not an ExportTraceServiceRequest: ${(e as Error).message}`);
      } finally {
        spans[i] = {};
      }
      out.add(w, serviceName, resourceSuspect);
    }
  });
  return out.result();
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const ID_FIELDS = ["traceId", "spanId", "parentSpanId"] as const;

/** The protobuf JSON mapping reads bytes as base64; OTLP JSON writes trace and span ids in hex. */
function hexIdsToBytes(span: Loose) {
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
type PbResource = { attributes: PbKeyValue[] };

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

/**
 * A per-span limit the span being read exceeds (./limits.ts), noted while it is read like
 * `suspect`; the span is then refused with it. `budget` is what is left of the current
 * attribute's value bytes (strings by their UTF-8 length, other scalars 8 bytes each).
 */
let overLimit: string | null = null;
let budget = 0;
const over = (why: string) => {
  overLimit ??= why;
  return null;
};
const VALUE_TOO_LARGE = `an attribute value over ${MAX_ATTRIBUTE_VALUE_BYTES} bytes`;
const TOO_DEEP = `nesting deeper than ${MAX_JSON_DEPTH} levels`;
const charge = (bytes: number) => (budget -= bytes) < 0 && over(VALUE_TOO_LARGE);
/** UTF-8 bytes at most 3 per UTF-16 unit: the exact count only for text that could exceed what is left. */
const chargeText = (text: string) => charge(text.length * 3 <= budget ? text.length : Buffer.byteLength(text));

/** The value as plain JSON; nesting is cut (and the span refused) past MAX_JSON_DEPTH. */
function plain(v: PbAnyValue | null, depth: number): unknown {
  if (!v) return null;
  if (depth > MAX_JSON_DEPTH) return over(TOO_DEEP);
  if (v.stringValue != null) {
    chargeText(v.stringValue);
    return seen(v.stringValue);
  }
  if (v.boolValue != null) return charge(8), v.boolValue;
  if (v.intValue != null) {
    charge(8);
    if (typeof v.intValue === "number") return v.intValue;
    const n = v.intValue.toNumber();
    return Number.isSafeInteger(n) ? n : v.intValue.toString();
  }
  if (v.doubleValue != null) return charge(8), v.doubleValue;
  if (v.arrayValue) {
    const values = v.arrayValue.values;
    const out: unknown[] = [];
    for (let i = 0; i < values.length && overLimit === null; i++) out.push(plain(values[i], depth + 1));
    return out;
  }
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values, depth + 1);
  if (v.bytesValue) return charge(Math.ceil(v.bytesValue.length / 3) * 4) ? null : bufferOf(v.bytesValue).toString("base64");
  return null;
}

/** Attributes (depth 0: a span's or an event's, each value with its own budget) or a map's entries. */
function attributesOf(list: PbKeyValue[], depth: number): Attributes {
  attributesLeft -= list.length;
  if (attributesLeft < 0) throw tooManyAttributes();
  const out: Attributes = {};
  if (list.length > MAX_ATTRIBUTES_PER_SPAN) return over(`more than ${MAX_ATTRIBUTES_PER_SPAN} attributes (or entries of one map)`) ?? out;
  for (let i = 0; i < list.length && overLimit === null; i++) {
    const kv = list[i];
    if (depth === 0) budget = MAX_ATTRIBUTE_VALUE_BYTES;
    else if (kv.key) chargeText(kv.key);
    // "__proto__" would set the object's prototype instead of an attribute.
    if (kv.key && kv.key !== "__proto__") out[seen(kv.key)] = plain(kv.value, depth + 1);
  }
  return out;
}

/** The resource's service.name (its other attributes are not kept). */
function serviceNameOf(list: PbKeyValue[]): string | null {
  const kv = list.find((a) => a.key === "service.name");
  if (!kv) return null;
  budget = MAX_ATTRIBUTE_VALUE_BYTES;
  overLimit = null;
  const name = stringAttr({ "service.name": plain(kv.value, 1) }, "service.name");
  return overLimit === null ? name : null;
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

/** The spans of an export as they are read, and the refused ones counted per reason. */
class Collector {
  readonly spans: StagedSpan[] = [];
  readonly reasons = new Map<string, number>();
  rejected = 0;
  /** Spans met so far (the protobuf reader stops past the limit). */
  seen = 0;

  refuse(why: string) {
    this.rejected++;
    this.reasons.set(why, (this.reasons.get(why) ?? 0) + 1);
  }

  add(w: PbSpan, serviceName: string | null, resourceSuspect: boolean) {
    suspect = resourceSuspect;
    overLimit = null;
    const span = stagedSpan(w, serviceName);
    const why = typeof span === "string" ? span : (overLimit ?? refusal(span));
    if (why) this.refuse(why);
    else this.spans.push(span as StagedSpan);
  }

  result(): DecodedExport {
    return { spans: this.spans, rejected: this.rejected, reasons: countedReasons(this.reasons) };
  }
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
  if (w.events.length > MAX_EVENTS_PER_SPAN) return `more than ${MAX_EVENTS_PER_SPAN} events`;
  const events: SpanEvent[] = [];
  for (const e of w.events) if (e.name && keptEvent(e.name)) events.push({ name: seen(e.name), timeNs: nanos(e.timeUnixNano) ?? "0", attributes: attributesOf(e.attributes, 0) });
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
    attributes: attributesOf(w.attributes, 0),
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
