import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyHash } from "@/lib/learning/capture/ingest";
import { workflowInput } from "@/lib/learning/capture/schemas";

/** The definition stored hashes were made with: the validated body's present fields as JSON. */
function definition(input: Record<string, unknown>): string {
  const present: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== null && v !== undefined) present[k] = v;
  return createHash("sha256").update(JSON.stringify(present)).digest("hex");
}

/** Bodies as agents send them: absent and null fields, "" ids, unknown fields, non-ASCII, nesting. */
const bodies = [
  { query: "", steps: [] },
  { workflow_id: "w-1", user_id: "", query: "Où est ma commande ?", steps: [{ tool: "t", arguments: { a: 1, "b\"": [null, { c: "x" }] }, result: null, error: null, timestamp: null }] },
  { query: "q", steps: [{ tool: " lookup ", arguments: '{"order":{"id":1}}', result: { ok: true }, timestamp: "2026-01-02T03:04:05.000Z" }], answer: null, outcome: "FAILURE" },
  { query: "q", steps: [{ tool: "x", error: { type: "TimeoutError", message: "late" } }], execution_error: { code: 1 }, skills_activated: ["s"], created_at: "2026-01-02T03:04:05Z", extra: { z: [1, "✓"] }, "1": 2, gone: null },
];
describe("bodyHash", () => {
  it("is the sha256 of the validated body's present fields as JSON, whatever fields the body holds", () => {
    for (const raw of bodies) {
      const input = workflowInput.parse(raw);
      expect(bodyHash(input)).toBe(definition(input));
      expect(bodyHash(input, JSON.stringify(input.steps))).toBe(definition(input));
    }
  });

  it("has the value runs were stored with", () => {
    const input = workflowInput.parse({ workflow_id: "w-1", query: "Refund", steps: [{ tool: "lookup_order", arguments: { id: 1 } }], answer: null });
    expect(bodyHash(input)).toBe(createHash("sha256").update('{"workflow_id":"w-1","query":"Refund","steps":[{"tool":"lookup_order","arguments":{"id":1}}]}').digest("hex"));
  });
});
