import { describe, expect, it } from "vitest";
import { applicabilityText, applicabilityVectors, unitApplicabilityScore, unitVector } from "@/lib/learning/applicability";
import { cosine } from "@/lib/learning/embedder";
import { offlineEmbedder } from "@/lib/learning/embedder";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/config";
import { templateDistill } from "@/lib/learning/template-distiller";
import { parseSkillMd } from "@/lib/learning/skill-md";
import { distillInput } from "./fixtures";

const fields = {
  name: "refund-order",
  description: "Use when a customer asks for a refund of an order that has already been paid.",
  preconditions: ["The request names the order to refund"],
  queries: ["Refund order A1", "Please refund order B7", "I want my money back for order C3"],
};

async function score(query: string) {
  const v = await applicabilityVectors(offlineEmbedder, fields);
  const [q] = await offlineEmbedder.embed([query]);
  return unitApplicabilityScore(unitVector(q), [v.embedding, ...v.queryEmbeddings].map(unitVector));
}

describe("skill applicability", () => {
  it("embeds only the name, description, preconditions and trigger queries", () => {
    const doc = templateDistill(distillInput());
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

  it("scores unit vectors by dot product, equal to cosine", () => {
    const a = [3, 4, 0];
    const b = [1, 2, 2];
    expect(unitApplicabilityScore(unitVector(a), [unitVector(b)])).toBeCloseTo(cosine(a, b), 6);
    expect(unitApplicabilityScore(unitVector(a), [unitVector([1, 2])])).toBe(0);
  });

  it("an unrelated request stays below the threshold", async () => {
    const min = DEFAULT_LEARNING_CONFIG.retrieval_min_similarity;
    for (const q of ["What is the weather in Paris tomorrow?", "Reset my account password", "Translate this paragraph into German"]) {
      expect(await score(q), q).toBeLessThan(min);
    }
  });
});
