import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createHash } from "node:crypto";
import {
  CANONICAL_VERSION,
  argKeyShape,
  canonicalIdentity,
  canonicalSignature,
  compareCodePoints,
  errorClass,
  normalizeQuery,
  orderSteps,
  parseTimestamp,
  pythonJson,
  unitJson,
} from "@/lib/learning/capture/canonical";

const VECTOR = "5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12";
const lookup = (args: unknown = { order_id: "A1" }, extra: object = {}) => ({ tool: "lookup_order", arguments: args, ...extra });
const refund = (args: unknown = { order_id: "A1", amount: 12.5 }, extra: object = {}) => ({ tool: "issue_refund", arguments: args, ...extra });
const hashOf = (steps: object[]) => canonicalIdentity(steps).hash;

describe("canonical hash: the reference rules and its canonicalization test", () => {
  it("reproduces the fixed test vector for a flat, error-free trajectory", () => {
    expect(hashOf([lookup(), refund()])).toBe(VECTOR);
    expect(CANONICAL_VERSION).toBe(2);
  });

  it("writes units byte for byte as the reference does", () => {
    const [u] = canonicalSignature([refund()]);
    expect(unitJson(u)).toBe('{"arg_keys":["amount","order_id"],"errored":false,"tool":"issue_refund"}');
    const manual = createHash("sha256")
      .update('[{"arg_keys":["order_id"],"errored":false,"tool":"lookup_order"},{"arg_keys":["amount","order_id"],"errored":false,"tool":"issue_refund"}]')
      .digest("hex");
    expect(manual).toBe(VECTOR);
  });

  it("ignores argument values", () => {
    expect(hashOf([lookup({ order_id: "Z9" }), refund({ order_id: "Z9", amount: 1 })])).toBe(VECTOR);
  });

  it("treats tool order as identity", () => {
    expect(hashOf([refund(), lookup()])).not.toBe(VECTOR);
  });

  it("collapses fail → fail → success into one unit with retry_count 3", () => {
    const sig = canonicalSignature([
      refund(undefined, { error: { type: "TimeoutError" } }),
      refund(undefined, { error: { type: "TimeoutError" } }),
      refund(),
    ]);
    expect(sig).toEqual([{ tool: "issue_refund", arg_keys: ["amount", "order_id"], errored: false, retry_count: 3 }]);
  });

  it("excludes retry_count from the hash: one retry equals a clean run", () => {
    expect(hashOf([lookup(), refund(undefined, { error: "timeout" }), refund()])).toBe(VECTOR);
  });

  it("keeps consecutive successes as separate units", () => {
    const sig = canonicalSignature([lookup(), lookup()]);
    expect(sig.map((u) => u.retry_count)).toEqual([1, 1]);
    expect(hashOf([lookup(), lookup()])).not.toBe(hashOf([lookup()]));
  });

  it("keeps a success followed by a failure as two units, and a trailing fail → fail stays errored", () => {
    expect(canonicalSignature([lookup(), lookup(undefined, { error: "x" })])).toHaveLength(2);
    const sig = canonicalSignature([refund(undefined, { error: "x" }), refund(undefined, { error: "y" })]);
    expect(sig).toEqual([{ tool: "issue_refund", arg_keys: ["amount", "order_id"], errored: true, error_class: "error", retry_count: 2 }]);
  });

  it("does not fold a retry whose argument shape differs", () => {
    expect(canonicalSignature([refund(undefined, { error: "x" }), refund({ order_id: "A1" })])).toHaveLength(2);
  });

  it("makes a terminal error part of the identity", () => {
    expect(hashOf([lookup(), refund(undefined, { error: { type: "TimeoutError" } })])).not.toBe(VECTOR);
  });

  it("makes the argument shape identity: an extra key changes the hash", () => {
    expect(hashOf([lookup({ order_id: "A1", verbose: true }), refund()])).not.toBe(VECTOR);
  });

  it("keeps array order when any step lacks a parseable timestamp", () => {
    const steps = [refund(undefined, { timestamp: "2026-11-30T10:00:05Z" }), lookup(undefined, { timestamp: "yesterday" })];
    expect(orderSteps(steps).map((s) => s.tool)).toEqual(["issue_refund", "lookup_order"]);
    expect(hashOf(steps)).not.toBe(VECTOR);
  });

  it("orders by (timestamp, index) when every step has one, never by position", () => {
    const steps = [
      refund(undefined, { timestamp: "2026-11-30T10:00:05Z" }),
      lookup(undefined, { timestamp: "2026-11-30T10:00:01Z" }),
    ];
    expect(hashOf(steps)).toBe(VECTOR);
    // Equal timestamps keep their array order.
    const tie = [lookup(undefined, { timestamp: "2026-11-30T10:00:00Z" }), refund(undefined, { timestamp: "2026-11-30T10:00:00Z" })];
    expect(hashOf(tie)).toBe(VECTOR);
    // Offsets are honoured: 11:00+02:00 is before 10:00Z.
    const offsets = [refund(undefined, { timestamp: "2026-11-30T10:00:00Z" }), lookup(undefined, { timestamp: "2026-11-30T11:00:00+02:00" })];
    expect(hashOf(offsets)).toBe(VECTOR);
  });

  it("gives empty steps an empty signature and no hash", () => {
    expect(canonicalIdentity([])).toMatchObject({ signature: [], hash: null, stepCount: 0 });
  });

  it("trims tool names and counts steps after collapse", () => {
    const id = canonicalIdentity([{ tool: "  lookup_order ", arguments: { order_id: 1 } }, refund(undefined, { error: "x" }), refund()]);
    expect(id.hash).toBe(VECTOR);
    expect(id.stepCount).toBe(2);
    expect(id.tools).toEqual(["lookup_order", "issue_refund"]);
  });
});

describe("canonical hash: Proctor's improvements (version 2)", () => {
  it("includes nested key paths: objects give dotted leaf paths, arrays of objects give key[].path", () => {
    expect(argKeyShape({ customer: { id: 1, address: { city: "X" } }, items: [{ sku: "a" }, { sku: "b", qty: 2 }], note: null })).toEqual([
      "customer.address.city",
      "customer.id",
      "items[].qty",
      "items[].sku",
      "note",
    ]);
  });

  it("treats empty objects, empty arrays and arrays of scalars as leaves", () => {
    expect(argKeyShape({ filters: {}, tags: [], ids: [1, 2], matrix: [[1], [2]] })).toEqual(["filters", "ids", "matrix[]", "tags"]);
  });

  it("distinguishes nested shapes the reference collapsed", () => {
    const a = hashOf([{ tool: "create_order", arguments: { customer: { id: 1 } } }]);
    const b = hashOf([{ tool: "create_order", arguments: { customer: { email: "x" } } }]);
    expect(a).not.toBe(b);
  });

  it("parses arguments that arrive as a JSON string", () => {
    expect(argKeyShape('{"order_id": "A1", "amount": 3}')).toEqual(["amount", "order_id"]);
    expect(hashOf([lookup('{"order_id":"A1"}'), refund(JSON.stringify({ amount: 1, order_id: "A1" }))])).toBe(VECTOR);
    expect(argKeyShape("not json")).toEqual([]);
    expect(argKeyShape("[1,2]")).toEqual([]);
    expect(argKeyShape(["order_id"])).toEqual([]);
    expect(argKeyShape(undefined)).toEqual([]);
  });

  it("uses the error's type as its class, 'error' when a step only says it failed", () => {
    expect(errorClass({ type: "TimeoutError", message: "slow" })).toBe("TimeoutError");
    expect(errorClass({ message: "no type" })).toBe("error");
    expect(errorClass("boom")).toBe("error");
    expect(errorClass(true)).toBe("error");
    expect(errorClass(null)).toBeNull();
    expect(errorClass(undefined)).toBeNull();
    expect(errorClass("")).toBeNull();
  });

  it("hashes different error classes differently and writes error_class only on errored units", () => {
    const timeout = hashOf([lookup(), refund(undefined, { error: { type: "TimeoutError" } })]);
    const denied = hashOf([lookup(), refund(undefined, { error: { type: "PermissionDenied" } })]);
    expect(timeout).not.toBe(denied);
    const [u] = canonicalSignature([refund(undefined, { error: { type: "TimeoutError" } })]);
    expect(unitJson(u)).toBe('{"arg_keys":["amount","order_id"],"error_class":"TimeoutError","errored":true,"tool":"issue_refund"}');
  });

  it("lets the last attempt's error class win when retries are folded", () => {
    const sig = canonicalSignature([
      refund(undefined, { error: { type: "TimeoutError" } }),
      refund(undefined, { error: { type: "RateLimited" } }),
    ]);
    expect(sig).toEqual([{ tool: "issue_refund", arg_keys: ["amount", "order_id"], errored: true, error_class: "RateLimited", retry_count: 2 }]);
  });

  it("writes the signature's JSON (what ingestion stores) with the same units, retry counts and text as the signature", () => {
    const steps = [
      { tool: "recherche_café", arguments: { "clé": 1, nested: { "\u{1F600}": [] } } },
      refund(undefined, { error: { type: "Délai" } }),
      refund(undefined, { error: "x" }),
      refund(),
      { tool: "notify", arguments: "{\"to\": \"a\"}", error: true },
    ];
    const id = canonicalIdentity(steps);
    expect(id.signature.map((u) => u.retry_count)).toEqual([1, 3, 1]);
    expect(JSON.parse(id.signatureJson)).toEqual(id.signature);
    expect(JSON.parse(canonicalIdentity([]).signatureJson)).toEqual([]);
  });
});

describe("byte form", () => {
  it("escapes every non-ASCII character as \\uXXXX (surrogate pairs for astral ones), like Python", () => {
    expect(pythonJson({ b: "é😀\u007f\n", a: [1, true, null] })).toBe('{"a":[1,true,null],"b":"\\u00e9\\ud83d\\ude00\\u007f\\n"}');
    const [u] = canonicalSignature([{ tool: "résumé", arguments: { "名前": 1 } }]);
    expect(unitJson(u)).toBe('{"arg_keys":["\\u540d\\u524d"],"errored":false,"tool":"r\\u00e9sum\\u00e9"}');
  });

  it("sorts keys by code point, not by UTF-16 unit", () => {
    // U+FF21 (fullwidth A) sorts before U+1F600 by code point, after it by UTF-16 units.
    expect(["\u{1F600}", "\uFF21"].sort(compareCodePoints)).toEqual(["\uFF21", "\u{1F600}"]);
    expect(argKeyShape({ "\u{1F600}": 1, "\uFF21": 2, b: 3, a: 4 })).toEqual(["a", "b", "\uFF21", "\u{1F600}"]);
  });

  it("orders any set of keys by code point, flat or nested, few or many", () => {
    // Few keys take an insertion sort, many the built-in one: both must give the code-point order.
    const key = fc.string({ unit: fc.constantFrom("a", "B", "_", "1", "é", "\uFF21", "\u{1F600}"), maxLength: 4 });
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40 }), fc.boolean(), (keys, nested) => {
        const args = Object.fromEntries(keys.map((k) => [k, nested ? { id: 1 } : 1]));
        const expected = keys.map((k) => (nested ? `${k}.id` : k)).sort(compareCodePoints);
        expect(argKeyShape(args)).toEqual(expected);
      }),
    );
  });

  it("parses ISO-8601 timestamps with or without offset (no offset = UTC) and refuses others", () => {
    expect(parseTimestamp("2026-11-30T10:00:00Z")).toBe(Date.UTC(2026, 10, 30, 10));
    expect(parseTimestamp("2026-11-30T10:00:00")).toBe(Date.UTC(2026, 10, 30, 10));
    expect(parseTimestamp("2026-11-30 12:00:00.5+0200")).toBe(Date.UTC(2026, 10, 30, 10, 0, 0, 500));
    expect(parseTimestamp("2026-13-40T10:00:00Z")).toBeNull();
    expect(parseTimestamp("garbage")).toBeNull();
    expect(parseTimestamp(1796032800000)).toBeNull();
  });

  it("reads toISOString's form (its fast path) as it reads the same instant spelled otherwise", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1970-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }), (d) => {
        const iso = d.toISOString();
        expect(parseTimestamp(iso)).toBe(d.getTime());
        expect(parseTimestamp(iso.replace("T", " "))).toBe(d.getTime());
        expect(parseTimestamp(iso.replace("Z", "+00:00"))).toBe(d.getTime());
      }),
    );
    expect(parseTimestamp("2026-02-30T10:00:00.000Z")).toBe(parseTimestamp("2026-02-30 10:00:00.000Z"));
    expect(parseTimestamp("2026-11-30T10:00:00.000z")).toBe(Date.UTC(2026, 10, 30, 10));
    expect(parseTimestamp("2026-11-30T10:00:0x.000Z")).toBeNull();
  });
});

describe("query normalization", () => {
  it("trims, lower-cases and collapses whitespace", () => {
    expect(normalizeQuery("  Refund   Order A1 ")).toBe("refund order a1");
    expect(normalizeQuery("Refund\t\norder\u00a0A1")).toBe("refund order a1");
    expect(normalizeQuery("")).toBe("");
    expect(normalizeQuery("   ")).toBe("");
    expect(normalizeQuery(null)).toBe("");
  });
});
