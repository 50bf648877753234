// Generated inputs for the fuzzer (tests/integration/fuzz.test.ts): values shaped like a zod
// schema wants (mostly valid), the same with one part broken, and outright hostile ones. The
// shapes come from zod's own JSON Schema conversion: no maintained zod-4 → fast-check bridge
// exists (zod-fast-check stops at zod 3).
import fc from "fast-check";
import { z } from "zod";
import { HOSTILE_STRINGS } from "./hostile-text";
import { bigAttributeTrace, deepArgumentsTrace, mergeExports, minimalSpans, protobufOf, tallTrace, type OtlpJson } from "./hostile-otlp";
import { MAX_ATTRIBUTE_VALUE_BYTES, MAX_SPANS_PER_EXPORT } from "../../lib/otlp/limits";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

const json = fc.jsonValue({ maxDepth: 2 });

/**
 * Text PostgreSQL cannot store (also as JSON text inside a string, which the server may parse),
 * path tricks, markup, React reply escapes, prototype keys, and the regex and YAML bombs of
 * ./hostile-text.ts.
 */
export const hostileString = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\ud83d", "", " ", "..", "%00", "%FF", "<script>alert(1)</script>", "'; DROP TABLE users; --", "$undefined", "$@0", "__proto__", "constructor"),
  fc.constantFrom('{"\\u0000":1}', '{"k":"\\ud800"}', '{"\\ud83d":[1]}', '["\\u0000"]'),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => s + "\ud800"),
  fc.integer({ min: 300, max: 70_000 }).map((n) => "x".repeat(n)),
  fc.constantFrom(...HOSTILE_STRINGS),
);

export const hostileNumber = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, -0, 0.5, -1, Number.MAX_SAFE_INTEGER);

/** Arrays or objects nested up to 2,000 deep (JSON.stringify itself overflows much deeper). */
const deep = fc.tuple(fc.integer({ min: 20, max: 2_000 }), fc.boolean()).map(([n, arrays]) => {
  let v: unknown = "leaf";
  for (let i = 0; i < n; i++) v = arrays ? [v] : { n: v };
  return v;
});

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, json, deep, fc.constantFrom(null, true, [], {}, [null], { "": "" }));

/** Values shaped like `schema`, most of them valid. */
export function conforming(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fromJsonSchema(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema, 0);
}

function fromJsonSchema(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return json;
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => fromJsonSchema(a, depth + 1)));
  if (s.allOf?.length) return fromJsonSchema(s.allOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      return stringLike(s);
    case "integer":
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -(2 ** 31)), max: Math.min(s.maximum ?? 1000, 2 ** 31 - 1) });
    case "number":
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => fromJsonSchema(p, depth + 1)));
      const minLength = s.minItems ?? 0;
      return fc.array(s.items ? fromJsonSchema(s.items, depth + 1) : json, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case "object": {
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fromJsonSchema(v, depth + 1)]));
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return json;
  }
}

function stringLike(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === "date-time") return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= (s.maxLength ?? 512));
    } catch {
      // A pattern fast-check cannot invert: plain text instead.
    }
  }
  const minLength = s.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(s.maxLength ?? 40, 40)) });
}

/** A conforming value with one part broken, at any depth: a field replaced, added or dropped, or the whole replaced. */
export function brokenFrom(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), hostileValue, fc.constantFrom("replace", "extra", "drop", "whole")).map(([v, i, bad, how]) => breakAt(v, i, bad, how));
}

/** `i` picks the path: a key at each level, and whether to go one level deeper. */
function breakAt(v: unknown, i: number, bad: unknown, how: string): unknown {
  if (how === "whole" || !v || typeof v !== "object") return bad;
  const copy: Record<string, unknown> = Array.isArray(v) ? { ...v } : { ...(v as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const rebuild = () => (Array.isArray(v) ? Object.values(copy) : copy);
  if (how === "extra" || keys.length === 0) return Array.isArray(v) ? [...v, bad] : { ...copy, [`extra_${i % 7}`]: bad };
  const key = keys[i % keys.length];
  const rest = Math.floor(i / keys.length);
  // Three times in four, go deeper where there is a deeper level: the nested parts are the least validated.
  if (copy[key] && typeof copy[key] === "object" && rest % 4 !== 0) {
    copy[key] = breakAt(copy[key], rest >> 2, bad, how);
    return rebuild();
  }
  if (how === "drop") delete copy[key];
  else copy[key] = bad;
  return rebuild();
}

/** Input for `schema`: a third valid-ish, a third with one part broken, a third hostile. */
export const inputFor = (schema: z.ZodType | undefined): fc.Arbitrary<unknown> => {
  if (!schema) return fc.oneof(fc.constant({}), hostileValue);
  const valid = conforming(schema);
  return fc.oneof(valid, brokenFrom(valid), hostileValue);
};

// Addresses stay under Node's 16 KiB header limit: past it Node's HTTP parser answers a bare 431
// before any of Proctor's code runs (reported, not fuzzed here).

/** Raw path segments: a fixture id, a valid-looking id, or bytes and dot segments a router chokes on. */
export const pathSegment = (known: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/).map(encodeURIComponent) },
    { weight: 3, arbitrary: fc.constantFrom("%FF", "%ED%A0%80", "%00", "a%00b", "..", ".", "%2e%2e", "a%2Fb", "%", "%zz", "%C3%A9", "%F0%9F%98%80", "x".repeat(1500), "%25", "a;b", "%0A") },
    { weight: 1, arbitrary: hostileString.filter((x) => x.length > 0 && x.length < 300 && x !== "." && x !== "..").map((x) => encodeURIComponent(x.replace(/[\ud800-\udfff]/g, "u"))) },
  );

/** A query string (without "?") shaped by `schema`, or with hostile values and extra keys. */
export function queryFor(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const hostileRaw = fc.constantFrom("%00", "%FF", "%ED%A0%80", "99999999999999999999", "2147483648", "-1", "1e400", "NaN", "", "%", "x".repeat(1500));
  const named = schema ? Object.keys((z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema).properties ?? {}) : [];
  const key = fc.oneof(fc.constantFrom("extra", "%00", ...(named.length ? named : ["q"])));
  const wellFormed = schema
    ? inputFor(schema).map((v) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? Object.entries(v)
              .map(([k, x]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof x === "string" ? x.slice(0, 1000).replace(/[\ud800-\udfff]/g, "u") : x !== null && typeof x === "object" ? "{}" : String(x))}`)
              .join("&")
          : "",
      )
    : fc.constant("");
  const hostile = fc.array(fc.tuple(key, hostileRaw).map(([k, v]) => `${k}=${v}`), { minLength: 1, maxLength: 3 }).map((p) => p.join("&"));
  return fc.oneof(wellFormed, hostile);
}

/** JSON text a serializer would never write: broken syntax, bad UTF-8 bytes, numbers out of range, deep brackets. */
export const hostileJsonText: fc.Arbitrary<Buffer> = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => Buffer.from(s)),
  fc.constantFrom('{"a":', "[1,", "{'a':1}", "nul", '{"limit": 1e400}', '{"n": 123456789012345678901234567890}', '{"a":"\\ud800"}', '{"\\u0000":1}', '"just a string"', "", " ").map((s) => Buffer.from(s)),
  fc.integer({ min: 100, max: 20_000 }).map((n) => Buffer.from("[".repeat(n) + "]".repeat(n))),
  json.map((v) => Buffer.concat([Buffer.from(JSON.stringify(v) ?? "null"), Buffer.from([0xff, 0xfe])])),
  fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
);

/**
 * OTLP exports that stopped or froze the server (./hostile-otlp.ts), JSON and protobuf: a poisoned
 * trace beside a 60-deep one, an attribute over its limit, more spans than an export may hold.
 */
export const hostileOtlpExport: fc.Arbitrary<{ body: Buffer; contentType: string }> = fc.constantFrom(
  ...([
    mergeExports(deepArgumentsTrace("fuzz-agent"), tallTrace("fuzz-agent")),
    bigAttributeTrace("fuzz-agent", MAX_ATTRIBUTE_VALUE_BYTES + 1),
    minimalSpans(MAX_SPANS_PER_EXPORT + 1),
  ] as OtlpJson[]).flatMap((e) => [
    { body: Buffer.from(JSON.stringify(e)), contentType: "application/json" },
    { body: protobufOf(e), contentType: "application/x-protobuf" },
  ]),
);
