// Deterministic, realistic support-desk tool calls (arguments and results of a few hundred
// bytes) shared by the demo seed and the ingestion benchmark. Everything comes from a seeded
// PRNG so the same seed always produces byte-identical runs.

/** mulberry32: small, fast, good enough for synthetic data; never for anything secret. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

export type Step = {
  tool: string;
  arguments: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { type: string; message: string };
  timestamp: string;
};

/** One case's facts, so every step of a run talks about the same order and customer. */
export type Case = { orderId: string; customerId: string; email: string; name: string; amount: number; sku: string; city: string };

const FIRST = ["Ana", "Ben", "Chen", "Dara", "Emil", "Fatima", "Gus", "Hana", "Ivo", "Jonas", "Kemi", "Lena", "Mateo", "Noor", "Olga", "Priya"];
const LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski", "Reyes", "Fischer"];
const SKUS = ["KB-204 keyboard", "HD-88 headset", "MS-12 mouse", "DK-3 dock", "MN-27 monitor", "CB-1 cable pack", "WC-9 webcam"];
const CITIES = ["Lisbon", "Austin", "Osaka", "Leeds", "Lyon", "Tallinn", "Porto", "Denver"];
const CARRIERS = ["DHL", "UPS", "PostNL", "FedEx"];

export function newCase(r: Rng): Case {
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  return {
    orderId: `A${r.int(10000, 99999)}`,
    customerId: `cus_${r.int(100000, 999999)}`,
    email: `${first}.${last}@example.com`.toLowerCase(),
    name: `${first} ${last}`,
    amount: r.int(900, 48000) / 100,
    sku: r.pick(SKUS),
    city: r.pick(CITIES),
  };
}

type ToolCall = { arguments: Record<string, unknown>; result: Record<string, unknown> };

/** Arguments and a plausible successful result for each tool of the demo toolbox. */
export const TOOL_CALLS: Record<string, (c: Case, r: Rng) => ToolCall> = {
  lookup_order: (c, r) => ({
    arguments: { order_id: c.orderId },
    result: {
      order_id: c.orderId,
      status: r.pick(["paid", "shipped", "delivered"]),
      customer_id: c.customerId,
      total: c.amount,
      currency: "EUR",
      items: [{ sku: c.sku, qty: r.int(1, 3), unit_price: c.amount }],
      placed_days_ago: r.int(1, 30),
      shipping: { city: c.city, method: r.pick(["standard", "express"]) },
    },
  }),
  lookup_customer: (c, r) => ({
    arguments: { email: c.email },
    result: {
      customer_id: c.customerId,
      name: c.name,
      tier: r.pick(["standard", "standard", "plus", "vip"]),
      orders_last_year: r.int(1, 40),
      open_tickets: r.int(0, 2),
      default_payment: { brand: r.pick(["visa", "mastercard", "amex"]), last4: String(r.int(1000, 9999)) },
    },
  }),
  issue_refund: (c, r) => ({
    arguments: { order_id: c.orderId, amount: c.amount, reason: r.pick(["damaged", "late", "not_as_described", "duplicate"]) },
    result: { accepted: true, refund_id: `re_${r.int(1e6, 9e6)}`, amount: c.amount, currency: "EUR", eta_days: r.int(2, 7) },
  }),
  charge_card: (c, r) => ({
    arguments: { customer_id: c.customerId, amount: c.amount, currency: "EUR", description: `Replacement ${c.sku}` },
    result: { accepted: true, charge_id: `ch_${r.int(1e6, 9e6)}`, amount: c.amount, three_ds: r.chance(0.2) },
  }),
  send_email: (c, r) => ({
    arguments: { to: c.email, template: r.pick(["refund_confirmation", "order_update", "password_reset", "generic_reply"]), locale: r.pick(["en", "de", "pt", "ja"]) },
    result: { queued: true, message_id: `msg_${r.int(1e7, 9e7)}` },
  }),
  escalate_ticket: (c, r) => ({
    arguments: { customer_id: c.customerId, priority: r.pick(["normal", "high", "urgent"]), summary: `Customer ${c.name} needs help with order ${c.orderId}` },
    result: { ticket_id: `T-${r.int(10000, 99999)}`, queue: r.pick(["billing", "logistics", "tier2"]), sla_hours: r.pick([4, 8, 24]) },
  }),
  track_shipment: (c, r) => ({
    arguments: { order_id: c.orderId },
    result: {
      carrier: r.pick(CARRIERS),
      tracking_number: `${r.int(1e9, 9e9)}`,
      status: r.pick(["in_transit", "out_for_delivery", "delivered", "held_at_customs"]),
      last_scan: { city: c.city, hours_ago: r.int(1, 72) },
    },
  }),
  search_kb: (_c, r) => {
    const topic = r.pick(["return policy", "warranty", "shipping times", "invoice copy", "change payment method", "gift cards"]);
    return {
      arguments: { query: topic, top_k: 3 },
      result: { articles: [{ id: `kb-${r.int(100, 999)}`, title: `How ${topic} works`, score: r.int(70, 99) / 100 }, { id: `kb-${r.int(100, 999)}`, title: `FAQ: ${topic}`, score: r.int(40, 69) / 100 }] },
    };
  },
  create_ticket: (c, r) => ({
    arguments: { customer_id: c.customerId, subject: `Follow-up on ${c.orderId}`, category: r.pick(["damage", "billing", "delivery", "other"]) },
    result: { ticket_id: `T-${r.int(10000, 99999)}`, status: "open" },
  }),
  update_address: (c, r) => ({
    arguments: { customer_id: c.customerId, address: { line1: `${r.int(1, 200)} ${r.pick(["Main St", "Rua Augusta", "High St", "Ringstrasse"])}`, city: c.city, postcode: String(r.int(10000, 99999)) } },
    result: { updated: true, applies_to_open_orders: r.int(0, 2) },
  }),
  cancel_order: (c, r) => ({
    arguments: { order_id: c.orderId, reason: r.pick(["changed_mind", "duplicate", "too_slow"]) },
    result: { cancelled: true, refund_due: c.amount, restocking_fee: r.chance(0.3) ? 4.99 : 0 },
  }),
  reset_password: (c, r) => ({
    arguments: { email: c.email },
    result: { reset_link_sent: true, expires_in_minutes: r.pick([15, 30, 60]) },
  }),
  apply_coupon: (c, r) => ({
    arguments: { customer_id: c.customerId, code: `SORRY${r.int(5, 25)}`, order_id: c.orderId },
    result: { applied: true, discount: r.int(5, 25), currency: "EUR" },
  }),
  schedule_callback: (c, r) => ({
    arguments: { customer_id: c.customerId, slot: `${r.pick(["today", "tomorrow", "monday"])} ${r.pick(["09", "11", "14", "16"])}:00` },
    result: { scheduled: true, agent_pool: r.pick(["billing", "tier2"]) },
  }),
  cancel_subscription: (c, r) => ({
    arguments: { customer_id: c.customerId, plan: r.pick(["plus_monthly", "plus_yearly"]) },
    result: { cancelled: true, effective: "end_of_period" },
  }),
};

export const TOOL_NAMES = Object.keys(TOOL_CALLS);
