// The shop agent every recorder drives: three tools, three accounts, thirty runs. Each run is
// scripted (the framework's own mock model follows `script`), so the runs Proctor should store
// are known before anything is exported: `expected` is the ground truth the conformance test
// (tests/integration/otlp-conformance.test.ts) compares Proctor's runs with.
export const ACCOUNTS = ["acct-alice", "acct-bob", "acct-carol"] as const;

export type Kind = "refund_ok" | "where_is" | "refund_fail";
export type ToolCall = { tool: "lookup_order" | "track_shipment" | "issue_refund"; arguments: Record<string, unknown> };
export type ExpectedStep = ToolCall & ({ result: unknown } | { error: string });
export type ScenarioRun = {
  index: number;
  kind: Kind;
  account: string;
  thread: string;
  query: string;
  /** The model's tool calls, in order, one per model step; then it answers `answer`. */
  script: ToolCall[];
  answer: string;
  steps: ExpectedStep[];
  outcome: "success" | "failure";
};

export const TOOLS = {
  lookup_order: { description: "Look up an order by its id", parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] } },
  track_shipment: { description: "Where an order's parcel is", parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] } },
  issue_refund: {
    description: "Refund an order",
    parameters: { type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } }, required: ["order_id", "amount"] },
  },
} as const;

export const REFUND_ERROR = "refund service unavailable";

const QUERIES: Record<Kind, string[]> = {
  refund_ok: [
    "Please refund order {o}",
    "I want my money back for {o}",
    "Can you refund {o}? It arrived broken",
    "Refund {o} please",
    "I'd like a refund on order {o}",
    "Order {o} was damaged, refund it",
    "Give me a refund for {o}",
    "Requesting a refund for order {o}",
    "Could I get {o} refunded?",
    "Refund my order {o}",
  ],
  where_is: [
    "Where is my order {o}?",
    "Has {o} shipped yet?",
    "Track order {o} for me",
    "When will {o} arrive?",
    "What's the status of my parcel {o}?",
    "Where's {o}?",
    "Is order {o} on its way?",
    "Can you track {o}?",
    "I'm still waiting for {o}, where is it?",
    "Delivery status of {o} please",
  ],
  refund_fail: [
    "Refund order {o} now",
    "I need a refund for {o}",
    "Please give me my money back for {o}",
    "{o} never worked, refund it",
    "Refund {o}, it was the wrong size",
    "Can I have a refund on {o}?",
    "I'd like order {o} refunded",
    "Refund request for order {o}",
    "Money back for {o}, please",
    "Return and refund {o}",
  ],
};

/** What the tools answer; issue_refund throws REFUND_ERROR for the refund_fail runs. */
export function toolResult(kind: Kind, call: ToolCall): unknown {
  const order = String(call.arguments.order_id);
  if (call.tool === "lookup_order") return { order_id: order, status: kind === "where_is" ? "shipped" : "delivered", amount: 25.5 };
  if (call.tool === "track_shipment") return { order_id: order, carrier: "DHL", eta: "2026-12-05" };
  if (kind === "refund_fail") throw new Error(REFUND_ERROR);
  return { order_id: order, refund_id: `R-${order}`, accepted: true };
}

export const scenario: ScenarioRun[] = Array.from({ length: 30 }, (_, index) => {
  const kind = (["refund_ok", "where_is", "refund_fail"] as const)[index % 3];
  const order = `A${100 + index}`;
  const second: ToolCall =
    kind === "where_is" ? { tool: "track_shipment", arguments: { order_id: order } } : { tool: "issue_refund", arguments: { order_id: order, amount: 25.5 } };
  const script: ToolCall[] = [{ tool: "lookup_order", arguments: { order_id: order } }, second];
  const steps: ExpectedStep[] = script.map((call) => {
    try {
      return { ...call, result: toolResult(kind, call) };
    } catch (e) {
      return { ...call, error: (e as Error).message };
    }
  });
  const answer =
    kind === "refund_ok" ? `Order ${order} is refunded (R-${order}).` : kind === "where_is" ? `Order ${order} is with DHL and arrives on 2026-12-05.` : `Sorry, I could not refund order ${order}: ${REFUND_ERROR}.`;
  return {
    index,
    kind,
    account: ACCOUNTS[Math.floor(index / 3) % 3],
    thread: `thread-${String(index).padStart(2, "0")}`,
    query: QUERIES[kind][Math.floor(index / 3)].replace("{o}", order),
    script,
    answer,
    steps,
    outcome: kind === "refund_fail" ? "failure" : "success",
  };
});
