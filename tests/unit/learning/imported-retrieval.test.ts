// Imported Agent Skills are retrieved on their description and "When to use" lines: with the
// offline embedder at the default threshold, scored the way lib/learning/inject/retrieval.ts
// scores them (the better of the best cosine over the skill's applicability texts and the skill's
// coverage of the request, terms weighted by the agent's document frequencies), for an agent that
// holds the six fixture skills beside the support skills of the trust suite (scored on cosine
// alone, as distilled skills are). Requests for what a fixture skill does reach it; unrelated requests and the
// trust suite's near-misses reach no skill they are not for; the support skills' paraphrases still
// reach theirs. Recall and false positives are printed.
import { describe, expect, it } from "vitest";
import { applicabilityText, applicabilityTexts, coverageScore, coverageTerms, type ApplicabilityFields } from "@/lib/learning/inject/applicability";
import { termSet } from "@/lib/learning/classes/content-terms";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { cosine, offlineEmbedder } from "@/lib/learning/inject/embedder";
import { termWeights, type TermWeights } from "@/lib/learning/inject/term-weights";
import { fromAgentSkillMd } from "@/lib/learning/skills-io/agent-skills-format";
import { triggerPhrases } from "@/lib/learning/skills-io/trigger-phrases";
import { fixtureFiles, fixtureSkillNames, SKILL_REQUESTS, UNRELATED_REQUESTS } from "../../helpers/agent-skills";
import { NEAR_MISSES, PARAPHRASES, RETRIEVAL_CLASSES, UNCOVERED_QUERIES, type SkillKey } from "../../helpers/offline-text";

const THRESHOLD = DEFAULT_LEARNING_CONFIG.retrieval_min_similarity;

/** Fields as the import stores them. */
function imported(name: string): ApplicabilityFields {
  const md = new TextDecoder().decode(fixtureFiles(name).find((f) => f.path === "SKILL.md")!.bytes);
  const read = fromAgentSkillMd(md, name);
  if (!read.ok) throw new Error(read.reasons.join("; "));
  return { ...read.skill, queries: triggerPhrases(read.skill) };
}

/** Fields as the template distiller writes them (as in offline-retrieval.test.ts). */
const support = Object.fromEntries(
  Object.entries(RETRIEVAL_CLASSES).map(([k, c]) => {
    const intent = c.name.replace(/-/g, " ");
    return [k, { name: c.name, description: `Use when a request asks for ${intent} and the preconditions hold.`, preconditions: [`The request supplies the ${c.keys} value(s) the procedure needs`, `The request asks for ${intent}`], queries: c.queries }];
  }),
) as Record<SkillKey, ApplicabilityFields>;

const IMPORTED = Object.fromEntries(fixtureSkillNames().map((n) => [n, imported(n)]));
const ALL: Record<string, ApplicabilityFields> = { ...support, ...IMPORTED };
const weights = termWeights(Object.values(ALL).map(applicabilityText), [...Object.values(support).flatMap((s) => s.queries), ...UNCOVERED_QUERIES]);

/** Retrieval's score: the best cosine, and for an imported skill its coverage of the request if higher. */
function score(query: string, s: ApplicabilityFields, w: TermWeights = weights, coverage = Object.values(IMPORTED).includes(s)): number {
  const q = offlineEmbedder.embedOne(query, w.weight, w.vocabulary);
  const cos = Math.max(...applicabilityTexts(s).map((t) => cosine(q, offlineEmbedder.embedOne(t, w.weight, w.vocabulary))));
  return coverage ? Math.max(cos, coverageScore(termSet(query, w.vocabulary), coverageTerms(s, w.vocabulary), w.weight)) : cos;
}
const similarity = (query: string, s: ApplicabilityFields) => score(query, s);
/** The skills a request reaches, as retrieval would inject them (at or above the threshold). */
const reached = (query: string) => Object.keys(ALL).filter((k) => similarity(query, ALL[k]) >= THRESHOLD);

/** Each fixture skill's requests and the skills each reached. */
const results = Object.entries(SKILL_REQUESTS).flatMap(([name, qs]) => qs.map((q) => ({ name, q, similarity: similarity(q, IMPORTED[name]), reached: reached(q) })));
const hits = results.filter((r) => r.reached.includes(r.name));
const unrelated = [...UNRELATED_REQUESTS, ...NEAR_MISSES.map(([q]) => q)].map((q) => ({ q, reached: reached(q).filter((k) => k in IMPORTED) }));

/**
 * The floor: 22 of 30 (73 %) of the fixture skills' requests reach their skill at the default
 * threshold, with no false positive among the 30 unrelated requests and near-misses (measured: 24;
 * on cosine alone 14, and without the trigger phrases 0). The offline embedder compares content
 * terms, so what a request says in none of the skill's words ("Draw a scatter plot", "Create a
 * histogram") is still missed. Two below the measured 24 absorbs a tokenizer tweak, not a lost
 * score or phrase source.
 */
const RECALL_FLOOR = 22;

describe("imported skills retrieval (offline embedder, default threshold)", () => {
  it("reaches a fixture skill for requests for what it does", () => {
    for (const r of results) console.log(`${r.reached.includes(r.name) ? "hit " : "miss"} ${r.similarity.toFixed(2)} ${r.name.padEnd(20)} ${r.q}`);
    console.log(`recall: ${hits.length} of ${results.length} requests (${Math.round((hits.length / results.length) * 100)} %)`);
    expect(hits.length).toBeGreaterThanOrEqual(RECALL_FLOOR);
    // Every skill is reached by some request for what it does, and only by its own.
    expect(new Set(hits.map((h) => h.name))).toEqual(new Set(Object.keys(IMPORTED)));
    for (const r of results) expect(r.reached.filter((k) => k !== r.name)).toEqual([]);
  });

  it("reaches no fixture skill for unrelated requests or the trust suite's near-misses", () => {
    const fp = unrelated.filter((u) => u.reached.length);
    console.log(`false positives: ${fp.length} of ${unrelated.length} requests (${UNRELATED_REQUESTS.length} unrelated, ${NEAR_MISSES.length} near-misses)`);
    expect(fp).toEqual([]);
  });

  it("reaches none of them for unrelated requests in a new agent that holds only these skills and no runs", () => {
    const alone = termWeights(Object.values(IMPORTED).map(applicabilityText));
    const fp = [...UNRELATED_REQUESTS, ...NEAR_MISSES.map(([q]) => q)].filter((q) => Object.values(IMPORTED).some((s) => score(q, s, alone) >= THRESHOLD));
    expect(fp).toEqual([]);
    // …while a request in the description's words still reaches its skill.
    expect(score("Make a bar chart of this CSV", IMPORTED["chart-maker"], alone)).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("leaves the support skills' retrieval as it was: paraphrases in, near-misses out", () => {
    for (const [q, key] of PARAPHRASES) expect(similarity(q, support[key]), q).toBeGreaterThanOrEqual(THRESHOLD);
    for (const [q, key] of NEAR_MISSES) expect(similarity(q, support[key]), q).toBeLessThan(THRESHOLD);
  });

  it("owes the recall to the trigger phrases: the description alone reaches none", () => {
    const bare = (name: string) => ({ ...IMPORTED[name], queries: [] });
    expect(results.filter((r) => score(r.q, bare(r.name), weights, true) >= THRESHOLD)).toEqual([]);
  });

  it("owes part of the recall to coverage: on cosine alone, fewer requests reach their skill", () => {
    const cosineOnly = results.filter((r) => score(r.q, IMPORTED[r.name], weights, false) >= THRESHOLD);
    console.log(`recall on cosine alone: ${cosineOnly.length} of ${results.length}`);
    expect(cosineOnly.length).toBeLessThan(hits.length - 5);
  });
});

describe("trigger phrases", () => {
  it("are the description's sentences and clauses and the When to use lines, without the trigger boilerplate", () => {
    const phrases = triggerPhrases({
      name: "release-notes",
      description: "Write release notes from merged pull requests. Use when the user asks for release notes, a changelog entry or a version announcement.",
      whenToUse: ["A summary of breaking changes", "Tags"],
    });
    expect(phrases).toEqual([
      "release notes",
      "Write release notes from merged pull requests.",
      "release notes, a changelog entry or a version announcement.",
      "a changelog entry",
      "a version announcement.",
      "A summary of breaking changes",
    ]);
  });

  it("read 'users' whole in the boilerplate, and count a capitalized product name as a term", () => {
    expect(triggerPhrases({ name: "x", description: "Make GIFs. Use when users request animated GIFs for Slack.", whenToUse: [] })).toEqual(["animated GIFs for Slack."]);
  });
});
