// What an imported skill is retrieved on: it has no runs, so no sampled trigger queries. Its
// applicability is its description and the lines of a "When to use" section, and each of their
// sentences and lines, and each of their clauses (split at commas, semicolons, colons, brackets,
// quotes, "or", "and"), stands in for a trigger query: one vector each (../inject/applicability.ts), so a short request
// that says what one clause says clears the retrieval threshold, where the whole description,
// embedded as one text, scores low against any short request. A clause's parts around a
// connective ("to", "with", "using" …) are phrases too. A phrase of fewer than two content terms
// besides the words every description uses ("etc.", "use this skill for") is left out: one shared
// word is not a match. Retrieval also scores the skill by how well these phrases and its other
// words cover a request (coverageScore in ../inject/applicability.ts).
import { ALL_WORDS, contentTerms } from "../classes/content-terms";
// A phrase needs two content terms besides GENERIC_TERMS: two hashed words alone can land near an
// unrelated one-word request ("Where is my order?" scored 0.71 against "use this skill for").
import { GENERIC_TERMS } from "../inject/applicability";

/** Phrases kept per skill, and characters per phrase. */
export const MAX_TRIGGER_PHRASES = 40;
const PHRASE_CHARS = 300;
/** A sentence ends at whitespace after . ! or ?; lines end one too (marked by a plain replace: no lookbehind). */
const SENTENCE_END = /([.!?])\s+/g;
const LINES = /\r?\n+/;
// Read from text whose spaces are collapsed: `\s+` on both sides of a word was quadratic on long runs of spaces.
const CLAUSES = /[;,:()[\]"“”]| (?:or|and|—|–|-) /i;
const CONNECTIVES = / (?:to|that|which|using|with|through|via|by) /i;
/**
 * How a description introduces its triggers ("Use this skill when the user asks for …", "Use when
 * users request …"): words every skill shares, left out of the phrase so its own words carry it.
 * Read from a phrase whose whitespace runs are one space, so it spells them " " and has no
 * unbounded quantifier (with `\s+` a ReDoS checker's proof of it ran for minutes).
 */
const BOILERPLATE = /^(?:claude )?(?:should )?(?:use|invoke|apply|trigger)s? (?:this skill |this |it )?(?:any time|always when|whenever|when|if|for) (?:the |a )?(?:users|user|someone|you|they)? ?(?:asks?|wants?|requests?|needs?|says?|mentions?)? ?(?:to |for |about )?/i;

export function triggerPhrases(s: { name: string; description: string; whenToUse: readonly string[] }): string[] {
  const texts = [s.name.replace(/-/g, " "), ...s.description.replace(SENTENCE_END, "$1\n").split(LINES), ...s.whenToUse].map((t) => t.replace(/\s+/g, " "));
  const out = new Set<string>();
  for (const clause of texts.flatMap((t) => [t, ...t.split(CLAUSES)])) {
    const phrase = clause.trim().replace(/\s+/g, " ").slice(0, PHRASE_CHARS).replace(BOILERPLATE, "");
    // The clause, and its parts around a connective ("building MCP servers" of "… to integrate APIs").
    for (const p of [phrase, ...phrase.split(CONNECTIVES)]) {
      if (contentTerms(p, ALL_WORDS).filter((t) => !GENERIC_TERMS.has(t.term)).length >= 2) out.add(p.trim());
      if (out.size === MAX_TRIGGER_PHRASES) return [...out];
    }
  }
  return [...out];
}
