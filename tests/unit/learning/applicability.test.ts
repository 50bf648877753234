import { describe, expect, it } from "vitest";
import { applicabilityText, applicabilityVectors, bestScores, coverageScore, coverageTerms, packVectors } from "@/lib/learning/inject/applicability";
import { termSet } from "@/lib/learning/classes/content-terms";
import { termWeights } from "@/lib/learning/inject/term-weights";
import { cosine } from "@/lib/learning/inject/embedder";
import { offlineEmbedder } from "@/lib/learning/inject/embedder";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { parseSkillMd } from "@/lib/learning/distill/skill-md";
import { distillInput, templateDoc } from "./fixtures";

const fields = {
  name: "refund-order",
  description: "Use when a customer asks for a refund of an order that has already been paid.",
  preconditions: ["The request names the order to refund"],
  queries: ["Refund order A1", "Please refund order B7", "I want my money back for order C3"],
};

async function score(query: string) {
  const v = await applicabilityVectors(offlineEmbedder, fields);
  const [q] = await offlineEmbedder.embed([query]);
  return bestScores(packVectors(q.length, [{ index: 0, vectors: [v.embedding, ...v.queryEmbeddings] }]), q, 1)[0];
}

describe("skill applicability", () => {
  it("embeds only the name, description, preconditions and trigger queries", () => {
    const doc = templateDoc(distillInput());
    const fm = parseSkillMd(doc)!.frontmatter;
    const text = applicabilityText({ ...fm, queries: ["Refund order A1"] });
    expect(text).toContain(fm.description);
    expect(text).toContain("Refund order A1");
    expect(text).not.toContain("## Procedure");
    expect(text).not.toContain("Call `");
    expect(text).not.toContain("lookup_order");
    expect(text).not.toContain("issue_refund");
  });

  it("stores one vector per trigger query beside the description vector", async () => {
    const v = await applicabilityVectors(offlineEmbedder, fields);
    expect(v.embedderId).toBe(offlineEmbedder.id);
    expect(v.queryEmbeddings).toHaveLength(3);
  });

  it("with the default offline embedder and threshold, trigger queries and light paraphrases retrieve the skill", async () => {
    const min = DEFAULT_LEARNING_CONFIG.retrieval_min_similarity;
    expect(await score("Refund order A1")).toBeGreaterThanOrEqual(0.999);
    for (const q of ["Refund order Z9", "please refund my order Q42", "Refund the order D4 please", "refunding order X1"]) {
      expect(await score(q), q).toBeGreaterThanOrEqual(min);
    }
  });

  it("scores each skill by its best vector's cosine, ignoring vectors of another dimension", () => {
    const m = packVectors(3, [
      { index: 0, vectors: [[3, 4, 0], [0, 0, 2]] },
      { index: 1, vectors: [[1, 2]] },
      { index: 2, vectors: [[1, 2, 2]] },
    ]);
    const best = bestScores(m, [0, 0, 5], 3);
    expect(best[0]).toBeCloseTo(1, 6);
    expect(best[1]).toBe(0);
    expect(best[2]).toBeCloseTo(cosine([0, 0, 5], [1, 2, 2]), 6);
    expect(bestScores(m, [1, 2], 3)).toEqual(new Float32Array(3));
  });

  it("an unrelated request stays below the threshold", async () => {
    const min = DEFAULT_LEARNING_CONFIG.retrieval_min_similarity;
    for (const q of ["What is the weather in Paris tomorrow?", "Reset my account password", "Translate this paragraph into German"]) {
      expect(await score(q), q).toBeLessThan(min);
    }
  });

  it("scores an imported skill's coverage: a request holding a phrase in the skill's words, not one sharing a single term", () => {
    const comms = { name: "internal-comms", description: "Write internal communications: status reports, leadership updates, company newsletters.", preconditions: [], queries: ["status reports", "leadership updates", "company newsletters"] };
    const w = termWeights([applicabilityText(comms)], ["Where is my order Z1?", "order Q4 status", "Track my package 1Z999"]);
    const cover = (q: string) => coverageScore(termSet(q, w.vocabulary), coverageTerms(comms, w.vocabulary), w.weight);
    expect(cover("Write the status reports for my team")).toBeGreaterThanOrEqual(DEFAULT_LEARNING_CONFIG.retrieval_min_similarity);
    expect(cover("What is the status of my order?")).toBe(0);
    expect(cover("Book a table for two")).toBe(0);
    // A phrase in passing, among words the skill never uses, stays below the threshold.
    expect(cover("Print the status reports binder for the auditor at the warehouse")).toBeLessThan(DEFAULT_LEARNING_CONFIG.retrieval_min_similarity);
  });

  it("reads a capitalized word the skills use as a word, and an account's name as a name", () => {
    const w = termWeights(["Create animated GIFs for Slack"], ["Cancel Bob's subscription"]);
    expect([...termSet("Make a GIF for Slack", w.vocabulary)]).toContain("slack");
    expect([...termSet("Cancel the plan of Bob", w.vocabulary)]).not.toContain("bob");
  });
});
