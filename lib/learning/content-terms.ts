// What a request is about: its content terms, once stop words (./stop-words.json), numbers,
// identifiers, e-mail addresses, URLs and personal names are removed. One reading shared by the
// template distiller (intent and names), the deterministic judge (generic wording) and the
// offline embedder (its features), so the three never disagree on what a word is.
// Terms are Porter stems ("refunds", "refunded" → "refund"); each keeps the word it was read from.
import { stemmer } from "stemmer";
import stopWordLists from "./stop-words.json";

export const STOP_WORDS: ReadonlySet<string> = new Set(Object.values(stopWordLists).flat());

export type Term = { term: string; word: string };

const URL = /(?:https?:\/\/|www\.)\S+/giu;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const SENTENCE_END = /[.!?:]["')\]]*$/;
/** A digit (order numbers, amounts, dates), an @ (e-mail addresses, handles) or a lowercase-uppercase joint (orderId): a value, not a word. */
const IDENTIFIER = /\p{N}|@|\p{Ll}\p{Lu}/u;
const CAPITALIZED = /^\p{Lu}\p{Ll}/u;

/** Stems of words seen (a vocabulary: every ingested query is read, and its words repeat). */
const MAX_CACHED_STEMS = 50_000;
const stems = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/**
 * The content terms of `text`, in order. A capitalized word inside a sentence is read as a name
 * ("Book a flight to Berlin", "Cancel Bob's plan"), unless most words are capitalized (a title-cased
 * request says nothing about names).
 */
export function contentTerms(text: string): Term[] {
  const chunks = text
    .normalize("NFKC")
    .replace(URL, " ")
    .split(/\s+/)
    .map((raw) => ({ raw, bare: raw.replace(EDGE_PUNCTUATION, "") }))
    .filter((c) => c.bare !== "");
  const later = chunks.slice(1).filter((c) => !IDENTIFIER.test(c.bare) && /^\p{L}/u.test(c.bare));
  const titled = later.filter((c) => /^\p{Lu}/u.test(c.bare)).length * 2 > later.length;
  const out: Term[] = [];
  let sentenceStart = true;
  for (const { raw, bare } of chunks) {
    const starts = sentenceStart;
    sentenceStart = SENTENCE_END.test(raw);
    // The raw chunk for @: an address's edge punctuation ("!@a.aa") is stripped from `bare`.
    if (IDENTIFIER.test(bare) || raw.includes("@")) continue;
    if (!starts && !titled && CAPITALIZED.test(bare)) continue;
    for (const letters of bare.match(/\p{L}+/gu) ?? []) {
      const word = letters.toLowerCase();
      if (word.length < 2 || STOP_WORDS.has(word)) continue;
      out.push({ term: stemOf(word), word });
    }
  }
  return out;
}

/** The distinct terms of `text`. */
export function termSet(text: string): Set<string> {
  return new Set(contentTerms(text).map((t) => t.term));
}

/** Words as an Agent Skills name: lowercase ASCII letters and digits joined by single hyphens, at most `max` characters. */
export function kebabName(words: string[], max = 64): string {
  const parts = words
    .map((w) => w.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter((w) => w !== "");
  let name = "";
  for (const p of parts) {
    const next = name ? `${name}-${p}` : p;
    if (next.length > max) break;
    name = next;
  }
  return name || (parts[0] ?? "").slice(0, max).replace(/-+$/, "");
}
