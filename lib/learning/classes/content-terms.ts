// What a request is about: its content terms, once stop words (./stop-words.json), numbers,
// identifiers, e-mail addresses, URLs and personal names are removed. One reading shared by the
// template distiller (intent and names), the deterministic judge (generic wording) and the
// offline embedder (its features), so the three never disagree on what a word is.
// Terms are Porter stems ("refunds", "refunded" → "refund"); each keeps the word it was read from.
import { stemmer } from "stemmer";
import { trimEdges } from "../../text/trim-edges";
import stopWordLists from "./stop-words.json";

export const STOP_WORDS: ReadonlySet<string> = new Set(Object.values(stopWordLists).flat());

export type Term = { readonly term: string; readonly word: string };
/** Terms read as words even when capitalized inside a sentence (ALL_WORDS: every one). */
export type Vocabulary = { has(term: string): boolean };
export const ALL_WORDS: Vocabulary = { has: () => true };

const URL = /(?:https?:\/\/|www\.)\S+/giu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/u;
const HYPHEN = /-/;
const SENTENCE_END = /[.!?:]["')\]]*$/;
/** A digit (order numbers, amounts, dates), an @ (e-mail addresses, handles) or a lowercase-uppercase joint (orderId): a value, not a word. */
const IDENTIFIER = /\p{N}|@|\p{Ll}\p{Lu}/u;
const CAPITALIZED = /^\p{Lu}\p{Ll}/u;

/** What a whitespace-separated chunk says wherever it stands in a text. */
type Chunk = {
  /** without edge punctuation */
  bare: string;
  /** a digit, an @ or a lowercase-uppercase joint: an identifier or a value */
  value: boolean;
  /** read for no term: a value, or a chunk holding an @ (an address: its edge punctuation is gone from `bare`) */
  skip: boolean;
  startsWithLetter: boolean;
  startsUppercase: boolean;
  capitalized: boolean;
  endsSentence: boolean;
  terms: readonly Term[];
};

/** Chunks read (words: values such as order numbers rarely repeat and are not kept). */
const MAX_CACHED_CHUNKS = 50_000;
const chunks = new Map<string, Chunk>();

function readChunk(raw: string): Chunk {
  const known = chunks.get(raw);
  if (known) return known;
  const bare = trimEdges(raw, NOT_LETTER_OR_DIGIT);
  const value = IDENTIFIER.test(bare);
  const skip = value || raw.includes("@");
  const terms: Term[] = [];
  if (!skip) {
    for (const letters of bare.match(/\p{L}+/gu) ?? []) {
      const word = letters.toLowerCase();
      if (word.length >= 2 && !STOP_WORDS.has(word)) terms.push({ term: stemmer(word), word });
    }
  }
  const chunk = {
    bare,
    value,
    skip,
    startsWithLetter: /^\p{L}/u.test(bare),
    startsUppercase: /^\p{Lu}/u.test(bare),
    capitalized: CAPITALIZED.test(bare),
    endsSentence: SENTENCE_END.test(raw),
    terms,
  };
  if (!skip) {
    if (chunks.size >= MAX_CACHED_CHUNKS) chunks.clear();
    chunks.set(raw, chunk);
  }
  return chunk;
}

/**
 * The content terms of `text`, in order. A capitalized word inside a sentence is read as a name
 * ("Book a flight to Berlin", "Cancel Bob's plan"), unless most words are capitalized (a title-cased
 * request says nothing about names) or its terms are all in `vocabulary` (product names a skill's
 * own text uses, such as "Slack": see ../inject/term-weights.ts). Chunks are read once per process
 * (every ingested run's query is read here, and its words repeat).
 */
export function contentTerms(text: string, vocabulary?: Vocabulary): Term[] {
  const read = text
    .normalize("NFKC")
    .replace(URL, " ")
    .split(/\s+/)
    .map(readChunk)
    .filter((c) => c.bare !== "");
  const later = read.slice(1).filter((c) => !c.value && c.startsWithLetter);
  const titled = later.filter((c) => c.startsUppercase).length * 2 > later.length;
  const out: Term[] = [];
  let sentenceStart = true;
  for (const c of read) {
    const starts = sentenceStart;
    sentenceStart = c.endsSentence;
    if (c.skip) continue;
    if (!starts && !titled && c.capitalized && !(vocabulary && c.terms.length > 0 && c.terms.every((t) => vocabulary.has(t.term)))) continue;
    out.push(...c.terms);
  }
  return out;
}

/** The distinct terms of `text`. */
export function termSet(text: string, vocabulary?: Vocabulary): Set<string> {
  return new Set(contentTerms(text, vocabulary).map((t) => t.term));
}

/** Words as an Agent Skills name: lowercase ASCII letters and digits joined by single hyphens, at most `max` characters. */
export function kebabName(words: string[], max = 64): string {
  const parts = words
    .map((w) => w.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "-"))
    .map((w) => trimEdges(w, HYPHEN))
    .filter((w) => w !== "");
  let name = "";
  for (const p of parts) {
    const next = name ? `${name}-${p}` : p;
    if (next.length > max) break;
    name = next;
  }
  return name || trimEdges((parts[0] ?? "").slice(0, max), HYPHEN, "end");
}
