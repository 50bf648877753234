// Offline skill retrieval with the default threshold: 20 labeled (query, skill) pairs scored the way
// lib/learning/retrieval.ts scores them (best cosine over the skill's applicability text and
// trigger queries, terms weighted by the agent's document frequencies). Paraphrases must clear
// the threshold; near-misses that share one generic noun ("order", "password") must not.
import { describe, expect, it } from "vitest";
import { applicabilityText, applicabilityTexts, type ApplicabilityFields } from "@/lib/learning/applicability";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/config";
import { cosine, offlineEmbedder, type TermWeight } from "@/lib/learning/embedder";
import { termWeights } from "@/lib/learning/term-weights";

const THRESHOLD = DEFAULT_LEARNING_CONFIG.retrieval_min_similarity;

/** Fields as the template distiller writes them. */
function skill(name: string, intent: string, keys: string, queries: string[]): ApplicabilityFields {
  return {
    name,
    description: `Use when a request asks for ${intent} and the preconditions hold.`,
    preconditions: [`The request supplies the ${keys} value(s) the procedure needs`, `The request asks for ${intent}`],
    queries,
  };
}

const SKILLS = {
  refund: skill("refund-order", "refund order", "order_id, amount", ["Refund order A1", "Please refund my order B7", "I want a refund for order C3", "refund order D4 please", "Can you refund order E5?"]),
  track: skill("track-package", "track package", "tracking_id", ["Track my package 1Z999", "Where is my package P-77?", "track package P-12 please", "Can you track parcel P-3 for me", "tracking status of package P-9"]),
  cancel: skill("cancel-subscription", "cancel subscription", "account_id", ["Cancel my subscription", "Please cancel the subscription on account 4410", "I want to cancel my subscription today", "cancel subscription for acct 77", "How do I cancel my subscription?"]),
  password: skill("reset-password", "reset password", "email", ["Reset my password", "I forgot my password, reset it please", "password reset for pat@example.com", "Can you reset the password of sam@example.com", "reset password please"]),
  address: skill("change-shipping-address", "change shipping address", "order_id, address", ["Change the shipping address of order A1", "Update shipping address for order B2", "change my shipping address on order C3", "I need to change the shipping address for order D4", "shipping address change for order E5"]),
  invoice: skill("send-invoice", "send invoice", "invoice_id", ["Send me invoice INV-1001", "Please send invoice INV-1002 again", "email me a copy of invoice INV-1003", "resend invoice INV-1004", "Can you send the invoice INV-1005"]),
};
type SkillKey = keyof typeof SKILLS;

/** The agent's recent queries: its skills' own, and order and account requests no skill covers. */
const RECENT = [
  ...Object.values(SKILLS).flatMap((s) => s.queries),
  "Where is my order Z1?", "What is the status of my order Q2", "Has order Q3 shipped yet?", "order Q4 status", "Is my order Q5 delayed",
  "Cancel order Q6", "Can I cancel order Q7", "What is my account balance", "Update my account email", "Close my account",
];

const PARAPHRASES: [string, SkillKey][] = [
  ["Could you refund my order Z9?", "refund"],
  ["refunds for order K2 please", "refund"],
  ["Where's my package P-5?", "track"],
  ["please track package P-88", "track"],
  ["cancel my subscription please", "cancel"],
  ["I forgot my password", "password"],
  ["please reset my password", "password"],
  ["Update the shipping address on order K2", "address"],
  ["Send me a copy of invoice INV-9", "invoice"],
  ["resend my invoice INV-7", "invoice"],
];

const NEAR_MISSES: [string, SkillKey][] = [
  ["Where is my order Z9?", "refund"],
  ["Cancel order A1", "refund"],
  ["Cancel my package delivery", "track"],
  ["What is the status of my order Q2", "track"],
  ["Cancel order Q7", "cancel"],
  ["Change my password", "password"],
  ["Reset my account settings", "password"],
  ["Change my subscription plan", "cancel"],
  ["What is my shipping cost", "address"],
  ["Pay invoice INV-9", "invoice"],
];

const agentWeights = termWeights([...Object.values(SKILLS).map(applicabilityText), ...RECENT]);

function similarity(query: string, key: SkillKey, weight?: TermWeight): number {
  const q = offlineEmbedder.embedOne(query, weight);
  return Math.max(...applicabilityTexts(SKILLS[key]).map((t) => cosine(q, offlineEmbedder.embedOne(t, weight))));
}

describe("offline retrieval precision", () => {
  it.each(PARAPHRASES)("retrieves a paraphrase: %s → %s", (query, key) => {
    expect(similarity(query, key, agentWeights.weight)).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it.each(NEAR_MISSES)("keeps a near-miss below the threshold: %s → %s", (query, key) => {
    expect(similarity(query, key, agentWeights.weight)).toBeLessThan(THRESHOLD);
  });

  it("owes the separation to the term weights: unweighted, the order-status request reaches the refund skill", () => {
    expect(similarity("Where is my order Z9?", "refund")).toBeGreaterThanOrEqual(THRESHOLD);
    expect(similarity("Where is my order Z9?", "refund", agentWeights.weight)).toBeLessThan(THRESHOLD);
  });

  it("stays below the threshold for an agent whose only skill and queries are refunds", () => {
    const fresh = termWeights([applicabilityText(SKILLS.refund), ...SKILLS.refund.queries]);
    expect(similarity("Where is my order Z9?", "refund", fresh.weight)).toBeLessThan(THRESHOLD);
    expect(similarity("Could you refund my order Z9?", "refund", fresh.weight)).toBeGreaterThanOrEqual(THRESHOLD);
  });
});

describe("term weights", () => {
  it("weigh a term in every document 1, a rarer one more, an unseen one the most", () => {
    const w = termWeights(["refund order A1", "track order B2", "order status", "refunds please"]);
    expect(w.documents).toBe(4);
    expect(w.weight("order")).toBeCloseTo(Math.log(5 / 4) + 1, 10);
    expect(w.weight("refund")).toBeCloseTo(Math.log(5 / 3) + 1, 10);
    expect(w.weight("track")).toBeGreaterThan(w.weight("refund"));
    expect(w.weight("weather")).toBeCloseTo(Math.log(5) + 1, 10);
  });
});
