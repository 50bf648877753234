// OTLP decoding (lib/otlp/decode.ts) of text PostgreSQL cannot store: a NUL or a lone surrogate
// anywhere in a span (its name, status message, an attribute key or value, an event, the
// resource's service.name) makes that span a counted refusal, never a failed statement; the
// other spans of the export are kept.
import { describe, expect, it } from "vitest";
import { decodeJson, decodeProtobuf } from "@/lib/otlp/decode";
import { jsonExport, protobufExport, recordAgentTrace } from "../helpers/otlp";

const spans = recordAgentTrace({ agentId: "decode-shop", query: "Refund order A1", calls: [{ tool: "lookup_order", args: { order_id: "A1" }, result: { status: "paid" } }], status: "ok" });

/** The export as OTLP JSON with `change` applied to the span named `name`. */
function withSpan(name: string, change: (span: Record<string, unknown>, body: { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] } }[] }) => void) {
  const body = JSON.parse(jsonExport(spans).toString());
  change(body.resourceSpans[0].scopeSpans[0].spans.find((s: { name: string }) => s.name === name), body);
  return decodeJson(Buffer.from(JSON.stringify(body)));
}

describe("OTLP decoding of unstorable text", () => {
  it("keeps spans whose text PostgreSQL stores, also from protobuf", () => {
    expect(decodeProtobuf(protobufExport(spans))).toMatchObject({ rejected: 0, reasons: [] });
  });

  it.each([
    ["a NUL in an attribute value", (s: Record<string, unknown>) => ((s.attributes as { value: { stringValue: string } }[])[0].value.stringValue = "bad\u0000value")],
    ["a lone surrogate in an attribute key", (s: Record<string, unknown>) => ((s.attributes as { key: string }[])[0].key = "key\uD800")],
    ["a NUL in the span name", (s: Record<string, unknown>) => (s.name = "execute_tool\u0000")],
    ["a lone surrogate in the status message", (s: Record<string, unknown>) => (s.status = { code: 2, message: "failed \uDC00" })],
  ])("refuses a span with %s, and only that span", (_, change) => {
    const decoded = withSpan("execute_tool lookup_order", change);
    expect(decoded.rejected).toBe(1);
    expect(decoded.reasons).toEqual(["1 span: holds text that cannot be stored (NUL or lone surrogates)"]);
    expect(decoded.spans).toHaveLength(spans.length - 1);
  });

  it("refuses every span of a resource whose service.name holds a NUL", () => {
    const decoded = withSpan("execute_tool lookup_order", (_, body) => {
      const service = body.resourceSpans[0].resource.attributes.find((a) => a.key === "service.name")!;
      service.value.stringValue = "shop\u0000";
    });
    expect(decoded.rejected).toBe(spans.length);
    expect(decoded.spans).toEqual([]);
  });
});
