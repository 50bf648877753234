// The demo support agent's data: its toolbox, about 25 trajectory classes with varied
// queries, failures and retry bursts spread over 60 days, and conversations for three
// accounts. Pure and deterministic: the same anchor gives byte-identical runs, so re-seeding
// reports duplicates instead of creating new rows.
import { newCase, prng, TOOL_CALLS, type Case, type Rng, type Step } from "./payloads.ts";

export const DEMO_AGENT_ID = "support-bot";
export const DEMO_USERS = ["acct-1", "acct-2", "acct-3", "acct-4", "acct-5"] as const;
const DAY = 86_400_000;

const TOOL_DESCRIPTIONS: Record<string, string> = {
  lookup_order: "Fetch an order with its items, totals and shipping details.",
  lookup_customer: "Find a customer by email: tier, open tickets, default payment method.",
  issue_refund: "Refund all or part of an order to the original payment method.",
  charge_card: "Charge the customer's default card (replacements, upgrades).",
  send_email: "Send a templated email to the customer.",
  escalate_ticket: "Hand the case to a human queue with a priority and summary.",
  track_shipment: "Carrier, tracking number and latest scan for an order.",
  search_kb: "Search the help-center knowledge base.",
  create_ticket: "Open a follow-up ticket for the customer.",
  update_address: "Change the customer's shipping address (applies to open orders).",
  cancel_order: "Cancel an order that has not shipped yet.",
  reset_password: "Send the customer a password-reset link.",
  apply_coupon: "Apply an apology coupon to an order.",
  schedule_callback: "Book a phone callback with a human agent.",
  cancel_subscription: "Cancel the customer's Plus subscription at period end.",
};

/** The PUT /api/v1/agents body: toolbox with JSON-schema parameters read off sample calls. */
export function demoAgentBody() {
  const sample = newCase(prng(1));
  return {
    name: "Acme support bot (demo)",
    tools: Object.entries(TOOL_DESCRIPTIONS).map(([name, description]) => {
      const args = TOOL_CALLS[name](sample, prng(1)).arguments;
      const properties = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, { type: typeof v === "object" ? "object" : typeof v }]));
      return { name, description, parameters: { type: "object", properties, required: Object.keys(args) } };
    }),
    // Each demo procedure is one account's habit: per-account classes (pooled, every class would
    // wait for more accounts at the distinct-accounts gate).
    learning: { require_shadow: true, shadow_evaluation_enabled: true, learning_scope: "user" },
    outcome_rule: { fail_when: [{ tool: "charge_card", path: "accepted", equals: false }] },
  };
}

/** How a class's runs can go wrong. */
type Failure =
  | { kind: "reported"; rate: number } // the agent reports outcome "failure"
  | { kind: "declined"; rate: number } // charge_card answers accepted:false → the outcome rule fails the run
  | { kind: "crash"; rate: number }; // an execution_error: failure whatever else is said

type ClassSpec = {
  key: string;
  tools: string[];
  user: string | null;
  runs: number;
  /** Days before the anchor the runs span: [oldest, newest]. */
  window: [number, number];
  queries: ((c: Case) => string)[];
  failure?: Failure;
  /** Probability that a step's tool first times out (1–3 times) and then succeeds. */
  retryRate?: number;
  /** Index of a step that always ends in an error (a distinct trajectory). */
  erroredStep?: number;
  /** A share of the runs packed into one hour: an incident's burst of retries. */
  burst?: { share: number; daysAgo: number };
};

const q = (...templates: ((c: Case) => string)[]) => templates;

const CLASSES: ClassSpec[] = [
  { key: "refund", tools: ["lookup_order", "issue_refund"], user: "acct-1", runs: 190, window: [59, 0], retryRate: 0.25,
    burst: { share: 0.2, daysAgo: 6 }, failure: { kind: "reported", rate: 0.05 },
    queries: q((c) => `Refund order ${c.orderId}`, (c) => `I want my money back for ${c.orderId}, the ${c.sku} arrived broken`, (c) => `Please refund ${c.orderId}`, (c) => `Can I get a refund on my ${c.sku}?`) },
  { key: "refund-confirm", tools: ["lookup_order", "issue_refund", "send_email"], user: "acct-1", runs: 140, window: [55, 1], retryRate: 0.1,
    queries: q((c) => `Refund ${c.orderId} and email me the confirmation`, (c) => `Refund my ${c.sku} and send a receipt to ${c.email}`) },
  { key: "where-is-order", tools: ["lookup_order", "track_shipment"], user: "acct-2", runs: 220, window: [60, 0],
    queries: q((c) => `Where is order ${c.orderId}?`, (c) => `Has my ${c.sku} shipped yet?`, (c) => `Tracking for ${c.orderId} please`, (c) => `My package to ${c.city} is late`) },
  { key: "replacement-charge", tools: ["lookup_customer", "charge_card", "send_email"], user: "acct-2", runs: 130, window: [45, 0],
    failure: { kind: "declined", rate: 0.15 }, retryRate: 0.15,
    queries: q((c) => `Send me a replacement ${c.sku} and charge my card`, (c) => `Charge ${c.amount} EUR for the upgraded ${c.sku}`) },
  { key: "escalate-flaky", tools: ["lookup_order", "escalate_ticket"], user: "acct-3", runs: 110, window: [50, 0],
    failure: { kind: "reported", rate: 0.4 },
    queries: q((c) => `I need a human about ${c.orderId}`, (c) => `This is the third time I write about ${c.orderId}!`, (c) => `Escalate my complaint about the ${c.sku}`) },
  { key: "address-change", tools: ["lookup_customer", "update_address", "send_email"], user: "acct-3", runs: 95, window: [40, 2],
    queries: q((c) => `I moved to ${c.city}, update my address`, (c) => `Change the shipping address for ${c.email}`) },
  { key: "cancel-refund", tools: ["lookup_order", "cancel_order", "issue_refund"], user: "acct-4", runs: 105, window: [58, 3], retryRate: 0.1,
    queries: q((c) => `Cancel ${c.orderId} and refund me`, (c) => `I ordered the ${c.sku} twice, cancel one`) },
  { key: "kb-answer", tools: ["search_kb"], user: null, runs: 230, window: [60, 0],
    queries: q(() => "What is your return policy?", () => "How long is the warranty?", () => "How long does shipping take?", () => "Can I get a copy of my invoice?", () => "Do you sell gift cards?") },
  { key: "kb-ticket", tools: ["search_kb", "create_ticket"], user: null, runs: 85, window: [50, 1],
    queries: q((c) => `The FAQ did not help with ${c.orderId}, open a ticket`, () => "Your help pages don't answer my question") },
  { key: "password-reset", tools: ["lookup_customer", "reset_password", "send_email"], user: "acct-5", runs: 120, window: [60, 0],
    queries: q(() => "I forgot my password", (c) => `Reset the password for ${c.email}`, () => "Can't log in anymore") },
  { key: "apology-coupon", tools: ["lookup_customer", "apply_coupon"], user: "acct-4", runs: 70, window: [35, 0],
    queries: q((c) => `My ${c.sku} was late, any discount?`, (c) => `Give ${c.name} a coupon for the delay`) },
  { key: "callback", tools: ["lookup_customer", "schedule_callback"], user: "acct-5", runs: 60, window: [30, 0],
    queries: q(() => "Please call me back tomorrow", (c) => `Book a call for ${c.name}`) },
  { key: "stale-address-fix", tools: ["lookup_order", "update_address"], user: "acct-1", runs: 45, window: [58, 38],
    queries: q((c) => `Fix the delivery address on ${c.orderId}`, (c) => `Wrong street on order ${c.orderId}`) },
  { key: "single-query", tools: ["track_shipment"], user: "acct-2", runs: 65, window: [28, 0],
    queries: q(() => "Where is my package?") },
  { key: "refund-timeout-escalate", tools: ["lookup_order", "issue_refund", "escalate_ticket"], user: "acct-1", runs: 40, window: [20, 4],
    erroredStep: 1, failure: { kind: "reported", rate: 0.5 },
    queries: q((c) => `Refund ${c.orderId}`, (c) => `Money back for ${c.sku} please`) },
  { key: "charge-crash", tools: ["lookup_customer", "charge_card"], user: "acct-3", runs: 35, window: [25, 0],
    failure: { kind: "crash", rate: 0.7 },
    queries: q((c) => `Charge my card for ${c.orderId}`, (c) => `Pay the balance on ${c.orderId}`) },
  { key: "multi-order-refund", tools: ["lookup_order", "lookup_order", "issue_refund"], user: "acct-2", runs: 75, window: [44, 0],
    queries: q((c) => `Refund both ${c.orderId} and my other order`, (c) => `Two of my orders had a broken ${c.sku}`) },
  { key: "damage-claim", tools: ["lookup_order", "track_shipment", "create_ticket", "send_email"], user: "acct-3", runs: 70, window: [52, 2],
    failure: { kind: "reported", rate: 0.1 },
    queries: q((c) => `The ${c.sku} arrived damaged`, (c) => `Box for ${c.orderId} was crushed`) },
  { key: "new-cancel-subscription", tools: ["lookup_customer", "cancel_subscription"], user: "acct-4", runs: 3, window: [2, 0],
    queries: q(() => "Cancel my Plus subscription", () => "Stop renewing my plan") },
  { key: "vip-callback", tools: ["lookup_customer", "escalate_ticket", "schedule_callback"], user: "acct-5", runs: 50, window: [48, 5],
    queries: q((c) => `${c.name} is a VIP, call them today`, () => "I want to speak to a manager") },
  { key: "coupon-email", tools: ["lookup_order", "apply_coupon", "send_email"], user: "acct-4", runs: 55, window: [42, 0],
    queries: q((c) => `Apply a coupon to ${c.orderId} and tell me`, (c) => `Discount on ${c.orderId} please, email me`) },
  { key: "double-charge", tools: ["lookup_customer", "lookup_order", "issue_refund", "send_email"], user: "acct-2", runs: 60, window: [36, 0],
    retryRate: 0.2, failure: { kind: "reported", rate: 0.08 },
    queries: q((c) => `I was charged twice for ${c.orderId}`, (c) => `Duplicate charge on my card for the ${c.sku}`) },
  { key: "kb-escalate", tools: ["search_kb", "escalate_ticket"], user: null, runs: 50, window: [60, 0],
    failure: { kind: "reported", rate: 0.3 },
    queries: q(() => "Nothing on your site answers this, get me a person", () => "Your bot is useless") },
  { key: "unknown-customer-ticket", tools: ["lookup_customer", "create_ticket"], user: null, runs: 45, window: [33, 0],
    erroredStep: 0,
    queries: q((c) => `I'm ${c.name}, I never got my order`, (c) => `Help, order ${c.orderId}`) },
  { key: "order-then-cancel", tools: ["lookup_order", "cancel_order"], user: "acct-5", runs: 80, window: [60, 10],
    queries: q((c) => `Cancel ${c.orderId}`, (c) => `I don't want the ${c.sku} anymore`) },
];

/** Runs with no tool calls: small talk. They form no class. */
const CHAT_QUERIES = ["hi", "thanks, that's all", "are you a bot?", "ok", "good morning"];

export type DemoRun = {
  workflow_id: string;
  user_id?: string;
  thread_id: string;
  root_trace_id: string;
  query: string;
  steps: Step[];
  execution_error: { type: string; message: string } | null;
  outcome?: "success" | "failure";
  answer: string;
  created_at: string;
};

export const classCount = CLASSES.length;

/** Every demo run, oldest first. `anchor` is the newest instant the data may reach. */
const RUNS_PER_THREAD = 3;

export function demoRuns(anchor: Date): DemoRun[] {
  const runs: DemoRun[] = [];
  CLASSES.forEach((spec, classIndex) => {
    const r = prng(1000 + classIndex);
    let previous = 0;
    for (let i = 0; i < spec.runs; i++) {
      // A thread's runs follow each other within minutes; threads spread over the window.
      const start = i % RUNS_PER_THREAD === 0 ? threadStart(spec, i, r, anchor) : previous + r.int(60, 600) * 1000;
      const run = classRun(spec, i, r, start);
      previous = Date.parse(run.created_at);
      runs.push(run);
    }
  });
  const r = prng(7);
  for (let i = 0; i < 40; i++) {
    const user = r.chance(0.7) ? r.pick(DEMO_USERS) : undefined;
    const at = new Date(anchor.getTime() - r.next() * 60 * DAY);
    runs.push({
      workflow_id: `demo-chat-${String(i).padStart(4, "0")}`,
      ...(user ? { user_id: user } : {}),
      thread_id: `t-chat-${i}`,
      root_trace_id: `tr-chat-${i}`,
      query: r.pick(CHAT_QUERIES),
      steps: [],
      execution_error: null,
      answer: "Happy to help!",
      created_at: at.toISOString(),
    });
  }
  return runs.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Business hours (08:00–20:00 UTC) on a day inside the class's window, or inside its burst hour. */
function threadStart(spec: ClassSpec, i: number, r: Rng, anchor: Date): number {
  const [oldest, newest] = spec.window;
  if (spec.burst && i < spec.runs * spec.burst.share) return anchor.getTime() - (spec.burst.daysAgo + r.next() / 24) * DAY;
  const start = new Date(anchor.getTime() - (newest + r.next() * (oldest - newest)) * DAY);
  start.setUTCHours(r.int(8, 19), r.int(0, 59), r.int(0, 59));
  // The newest thread must still end before the anchor.
  return Math.min(start.getTime(), anchor.getTime() - r.int(2, 6) * 3600_000);
}

function classRun(spec: ClassSpec, i: number, r: Rng, start: number): DemoRun {
  const c = newCase(r);
  const inBurst = spec.burst && i < spec.runs * spec.burst.share;
  const failure = spec.failure && r.chance(spec.failure.rate) ? spec.failure.kind : null;
  let t = start;
  const steps: Step[] = [];
  const tick = () => new Date((t += r.int(300, 4000))).toISOString();
  spec.tools.forEach((tool, index) => {
    const call = TOOL_CALLS[tool](c, r);
    // Retry bursts: the same call times out, then goes through (one unit after retry collapse).
    const timeouts = !inBurst && !(spec.retryRate && r.chance(spec.retryRate)) ? 0 : r.int(1, 3);
    for (let k = 0; k < timeouts; k++) {
      steps.push({ tool, arguments: call.arguments, error: { type: "TimeoutError", message: `${tool} did not answer within 10s` }, timestamp: tick() });
    }
    if (index === spec.erroredStep) {
      const error = tool === "lookup_customer" ? { type: "NotFoundError", message: "no customer with that email" } : { type: "TimeoutError", message: `${tool} did not answer within 10s` };
      steps.push({ tool, arguments: call.arguments, error, timestamp: tick() });
      return;
    }
    const result = failure === "declined" && tool === "charge_card" ? { accepted: false, decline_code: r.pick(["insufficient_funds", "expired_card", "do_not_honor"]) } : call.result;
    steps.push({ tool, arguments: call.arguments, result, timestamp: tick() });
  });

  const user = spec.user ?? undefined;
  return {
    workflow_id: `demo-${spec.key}-${String(i).padStart(4, "0")}`,
    ...(user ? { user_id: user } : {}),
    thread_id: `t-${spec.key}-${Math.floor(i / RUNS_PER_THREAD)}`,
    root_trace_id: `tr-${spec.key}-${i}`,
    query: r.pick(spec.queries)(c),
    steps,
    execution_error: failure === "crash" ? { type: "ToolRuntimeError", message: "payment gateway connection reset" } : null,
    ...(failure === "reported" ? { outcome: "failure" as const } : {}),
    answer: failure ? "Sorry, I could not finish that; a colleague will follow up." : "Done. Anything else?",
    created_at: new Date(t + 800).toISOString(),
  };
}

export type DemoConversation = {
  thread_id: string;
  user_id: string;
  root_trace_id: string;
  messages: { message_id: string; role: "user" | "assistant" | "tool"; text: string; timestamp: string }[];
};

/**
 * Each conversation is the talk around one real thread of runs of the account: the opening
 * message (a stated goal, or else the first run's own query) comes just before the runs, the
 * reply and the follow-up just after them.
 */
const CONVERSATIONS: { user: string; classKey: string; opener?: string; reply: string; followUp: string }[] = [
  { user: "acct-1", classKey: "refund", opener: "My goal is to get refunds for damaged items processed the same day.", reply: "Understood. I looked the order up and refunded it right away.", followUp: "Great, and always email me the confirmation." },
  { user: "acct-1", classKey: "refund", reply: "Refunded; it should arrive within a week.", followUp: "Thanks. I prefer short answers, by the way." },
  { user: "acct-1", classKey: "refund-confirm", opener: "My goal is to stop chasing refund receipts by hand.", reply: "Refunded, and the confirmation is in your inbox.", followUp: "Perfect, do that by default." },
  { user: "acct-2", classKey: "where-is-order", reply: "It's with the carrier and out for delivery today.", followUp: "Ok, please always give me the tracking number." },
  { user: "acct-2", classKey: "where-is-order", opener: "My goal is to keep my team's equipment orders on schedule.", reply: "All of them are in transit; none is held at customs.", followUp: "Yes, and warn me about customs holds." },
  { user: "acct-3", classKey: "escalate-flaky", reply: "I've escalated it to a human queue with high priority.", followUp: "Thank you. I'd rather talk to a person for complaints." },
  { user: "acct-3", classKey: "address-change", opener: "My goal is to move all deliveries to our new office.", reply: "Updated your address; it applies to your open orders.", followUp: "Great, email me when it's done." },
];

export function demoConversations(runs: DemoRun[]): DemoConversation[] {
  const used = new Map<string, number>();
  return CONVERSATIONS.map((c) => {
    // The n-th conversation of a class sits on that class's n-th most recent thread.
    const n = used.get(c.classKey) ?? 0;
    used.set(c.classKey, n + 1);
    const ofClass = runs.filter((r) => r.workflow_id.startsWith(`demo-${c.classKey}-`) && r.user_id === c.user);
    const threads = [...new Set(ofClass.map((r) => r.thread_id).reverse())];
    const thread = threads[n];
    const threadRuns = ofClass.filter((r) => r.thread_id === thread);
    const first = threadRuns[0];
    const opensAt = Date.parse(first.steps[0]?.timestamp ?? first.created_at) - 20_000;
    const endsAt = Date.parse(threadRuns.at(-1)!.created_at);
    const lines: [DemoConversation["messages"][number]["role"], string, number][] = [
      ["user", c.opener ?? first.query, opensAt],
      ["assistant", c.reply, endsAt + 2_000],
      ["user", c.followUp, endsAt + 45_000],
    ];
    return {
      thread_id: thread,
      user_id: c.user,
      root_trace_id: first.root_trace_id,
      messages: lines.map(([role, text, at], k) => ({ message_id: `${thread}-m${k}`, role, text, timestamp: new Date(at).toISOString() })),
    };
  });
}
