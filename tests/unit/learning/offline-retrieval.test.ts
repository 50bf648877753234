// Offline skill retrieval with the default threshold: 20 labeled (query, skill) pairs scored the way
// lib/learning/inject/retrieval.ts scores them (best cosine over the skill's applicability text and
// trigger queries, terms weighted by the agent's document frequencies). Paraphrases must clear
// the threshold; near-misses that share one generic noun ("order", "password") must not.
import { describe, expect, it } from "vitest";
import { applicabilityText, applicabilityTexts, type ApplicabilityFields } from "@/lib/learning/inject/applicability";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { cosine, offlineEmbedder, type TermWeight } from "@/lib/learning/inject/embedder";
import { termWeights } from "@/lib/learning/inject/term-weights";
import { NEAR_MISSES, PARAPHRASES, RETRIEVAL_CLASSES, UNCOVERED_QUERIES, type SkillKey } from "../../helpers/offline-text";

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

const SKILLS = Object.fromEntries(
  Object.entries(RETRIEVAL_CLASSES).map(([key, c]) => [key, skill(c.name, c.name.replace(/-/g, " "), c.keys, c.queries)]),
) as Record<SkillKey, ApplicabilityFields>;

/** The agent's recent queries: its skills' own, and order and account requests no skill covers. */
const RECENT = [...Object.values(SKILLS).flatMap((s) => s.queries), ...UNCOVERED_QUERIES];

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
