// Shared sample runs for the learning-engine unit tests: a refund procedure
// (lookup_order → issue_refund) with one business failure.
import type { SampleRun } from "@/lib/learning/distill/sample-run";
import type { DistillInput } from "@/lib/learning/distill/distill-prompt";
import { templateDistill } from "@/lib/learning/distill/template-distiller";

export const TOOLBOX = new Set(["lookup_order", "issue_refund", "send_email"]);
export const TOOL_PATH = ["lookup_order", "issue_refund"];

export function run(orderId: string, amount: number, opts: { failed?: boolean; query?: string; email?: string } = {}): SampleRun {
  return {
    workflowId: `wf-${orderId}`,
    query: opts.query ?? `Refund order ${orderId}`,
    outcome: opts.failed ? "failure" : "success",
    steps: [
      { tool: "lookup_order", arguments: { order_id: orderId }, result: { status: "paid", customer: { email: opts.email ?? "pat@example.com" } }, error: null },
      opts.failed
        ? { tool: "issue_refund", arguments: { order_id: orderId, amount }, result: null, error: { type: "RefundWindowClosed", message: "too late" } }
        : { tool: "issue_refund", arguments: { order_id: orderId, amount }, result: { accepted: true, refund_ref: `RF-${orderId}-0091` }, error: null },
    ],
  };
}

export const SUCCESSES = [run("ORD-88121", 12.5), run("ORD-77310", 40), run("ORD-55102", 9.99, { query: "Please refund order ORD-55102" })];
export const FAILURES = [run("ORD-66001", 15, { failed: true })];

export function distillInput(over: Partial<DistillInput> = {}): DistillInput {
  return {
    successes: SUCCESSES,
    failures: FAILURES,
    previousVersion: null,
    maxChars: 4000,
    toolPath: TOOL_PATH,
    queries: SUCCESSES.map((r) => r.query),
    minDistinctQueries: 2,
    ...over,
  };
}

export const GOOD_SKILL = `---
name: refund-paid-order
description: Use when a customer asks for a refund of an order that has already been paid.
preconditions:
  - The request names the order to refund
  - The order is paid
tools: [lookup_order, issue_refund]
---
# refund-paid-order

## When to apply
A customer wants money back for a specific paid order.
When NOT to apply: the refund window has closed or the order is not paid.

## Procedure
1. Call \`lookup_order\` with {order_id: string}
2. Call \`issue_refund\` with {order_id: string, amount: number}

## Failure modes observed
- \`issue_refund\` fails with RefundWindowClosed when the window has passed: tell the customer instead of retrying.

## Worked example
Refund order <order id> → lookup, then refund <amount>.
`;

/** The template distiller's document (fails the test when it answered INSUFFICIENT). */
export function templateDoc(input: DistillInput): string {
  const d = templateDistill(input);
  if (!("content" in d)) throw new Error(`template distiller answered INSUFFICIENT: ${d.insufficient}`);
  return d.content;
}
