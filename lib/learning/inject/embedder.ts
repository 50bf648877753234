// Text embeddings for query similarity (workflow retrieval, skill applicability).
// The default is offline and deterministic: hashed features of the content terms (their stems
// and character trigrams), L2-normalized, so paraphrases land near each other without any model.
// Stored vectors hold plain term counts; skill retrieval weights the terms by their inverse
// document frequency in the agent's skills and recent queries at scoring time (./term-weights.ts),
// so ingestion stays one pass over the text. An OpenAI-compatible
// embeddings endpoint is used instead when PROCTOR_EMBEDDINGS_MODEL is set. Every vector is
// stored with its embedder id, and vectors of different embedders are never compared (earlier
// versions of the offline space count as the offline embedder's: HashingEmbedder.previousIds).
import OpenAI from "openai";
import { contentTerms, type Vocabulary } from "../classes/content-terms";
import { mapInSlices } from "../../slices";

export interface Embedder {
  /** Stable identity of the vector space; stored beside every vector. */
  readonly id: string;
  embed(texts: string[]): Promise<number[][]>;
}

/** Cosine similarity; 0 when either vector is zero or the lengths differ. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Weights of the feature families, calibrated in tests/unit/embedder.test.ts. */
const WORD_WEIGHT = 1.0;
/** Total weight of one word's trigrams (spread over them): morphology and typos still overlap. */
const TRIGRAM_WEIGHT = 0.6;

/** A term's weight in a collection (its inverse document frequency, ./term-weights.ts). */
export type TermWeight = (term: string) => number;

/** Words whose feature hashes are kept (a vocabulary, not the texts: queries repeat their words). */
const MAX_CACHED_WORDS = 50_000;
const wordHashes = new Map<string, { term: number; grams: Int32Array }>();

/**
 * The hashes of a content term's features: its word feature (`w:<term>`) and the trigrams of the
 * word it was read from (`c:<gram>` of `<word>`), computed once per word. Hashing every feature
 * key of every text would be the largest share of an ingested run's own CPU.
 */
function featureHashes(term: string, word: string) {
  let cached = wordHashes.get(word);
  if (!cached) {
    const padded = `<${word}>`;
    const grams = new Int32Array(padded.length - 2);
    for (let i = 0; i < grams.length; i++) grams[i] = hash32(`c:${padded.slice(i, i + 3)}`);
    cached = { term: hash32(`w:${term}`), grams };
    if (wordHashes.size >= MAX_CACHED_WORDS) wordHashes.clear();
    wordHashes.set(word, cached);
  }
  return cached;
}

/** FNV-1a over UTF-16 units with murmur3's finalizer: fast, stable across processes. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Offline feature-hashing embedder (signed hashing keeps collisions unbiased). */
export class HashingEmbedder implements Embedder {
  readonly id: string;

  // A text touches a few dozen of the coordinates: they are summed in these buffers (zeroed
  // again after each text), so no dense vector is built for the PostgreSQL literal.
  private readonly sums: Float64Array;
  private readonly touched: Uint8Array;
  /** "0,0,…": runs of zero coordinates are slices of it. */
  private readonly zeros: string;

  /**
   * Earlier versions of this space: the same hashing and feature families, but v1 kept stop words
   * v2 drops, emitted an identifier feature and stemmed more lightly. Its stored vectors stay
   * comparable enough to rank runs (a differing feature only lowers a cosine), so runs stored
   * before v2 stay searchable; skills are scored from their texts (./retrieval.ts).
   */
  readonly previousIds: readonly string[];

  constructor(readonly dimensions = 512) {
    this.id = `hash-ngram-v2:${dimensions}`;
    this.previousIds = [`hash-ngram-v1:${dimensions}`];
    this.sums = new Float64Array(dimensions);
    this.touched = new Uint8Array(dimensions);
    this.zeros = "0,".repeat(dimensions);
  }

  /**
   * The non-zero coordinates, ascending, L2-normalized and rounded. Features: one per content
   * term (./content-terms.ts: no stop words, identifiers, numbers, e-mail addresses or names) and
   * its word's trigrams, each scaled by the term's weight when given. A text without content
   * terms ("sure, go ahead") has no features: it matches nothing.
   */
  private sparse(text: string, weight?: TermWeight, vocabulary?: Vocabulary): { index: number[]; value: number[] } {
    const { sums, touched } = this;
    const index: number[] = [];
    const add = (h: number, w: number) => {
      const i = (h & 0x7fffffff) % this.dimensions;
      sums[i] += (h < 0 ? -1 : 1) * w;
      if (!touched[i]) {
        touched[i] = 1;
        index.push(i);
      }
    };
    for (const { term, word } of contentTerms(text, vocabulary)) {
      const k = weight ? weight(term) : 1;
      const hashes = featureHashes(term, word);
      add(hashes.term, WORD_WEIGHT * k);
      // The trigrams share the weight: morphology and typos overlap without outweighing the word.
      const each = (TRIGRAM_WEIGHT * k) / Math.sqrt(hashes.grams.length);
      for (const h of hashes.grams) add(h, each);
    }
    index.sort((a, b) => a - b);
    let squares = 0;
    for (const i of index) squares += sums[i] * sums[i];
    const norm = Math.sqrt(squares);
    // Six decimals are more than a float4 column keeps and keep the wire form short.
    const value = index.map((i) => (norm === 0 ? 0 : Math.round((sums[i] / norm) * 1e6) / 1e6));
    for (const i of index) {
      sums[i] = 0;
      touched[i] = 0;
    }
    return { index, value };
  }

  /** The text's vector, its terms scaled by `weight`; capitalized words in `vocabulary` are read as words, not names. */
  embedOne(text: string, weight?: TermWeight, vocabulary?: Vocabulary): number[] {
    const v = new Array<number>(this.dimensions).fill(0);
    const { index, value } = this.sparse(text, weight, vocabulary);
    for (let k = 0; k < index.length; k++) v[index[k]] = value[k];
    return v;
  }

  /** embedOne's vector as a PostgreSQL array literal, written from its non-zero coordinates. */
  arrayLiteral(text: string): string {
    const { index, value } = this.sparse(text);
    const parts: string[] = [];
    let from = 0;
    for (let k = 0; k < index.length; k++) {
      if (index[k] > from) parts.push(this.zeros.slice(0, 2 * (index[k] - from) - 1));
      // toFixed: a coordinate is a multiple of 1e-6, and String() of a double cost three times as much.
      parts.push(value[k].toFixed(6));
      from = index[k] + 1;
    }
    if (from < this.dimensions) parts.push(this.zeros.slice(0, 2 * (this.dimensions - from) - 1));
    return `{${parts.join(",")}}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }
}

/** Any OpenAI-compatible /embeddings endpoint. */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  private readonly client: OpenAI;
  constructor(private readonly model: string, opts: { baseURL?: string; apiKey?: string } = {}) {
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey || "unused", timeout: 10_000, maxRetries: 1 });
    this.id = `openai:${model}@${new URL(this.client.baseURL).host}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    // Endpoints cap inputs per request (OpenAI: 2048).
    for (let i = 0; i < texts.length; i += 512) {
      const r = await this.client.embeddings.create({ model: this.model, input: texts.slice(i, i + 512).map((t) => t || " ") });
      for (const d of [...r.data].sort((a, b) => a.index - b.index)) out.push(d.embedding);
    }
    return out;
  }
}

export const offlineEmbedder = new HashingEmbedder();

let configured: { key: string; embedder: Embedder } | null = null;

/** The configured embedder: OpenAI-compatible when PROCTOR_EMBEDDINGS_MODEL is set, else offline. */
export function defaultEmbedder(env: Record<string, string | undefined> = process.env): Embedder {
  const model = env.PROCTOR_EMBEDDINGS_MODEL?.trim();
  if (!model) return offlineEmbedder;
  const baseURL = env.PROCTOR_EMBEDDINGS_BASE_URL?.trim() || undefined;
  const key = `${model}\u0000${baseURL ?? ""}`;
  if (configured?.key !== key) {
    configured = { key, embedder: new OpenAIEmbedder(model, { baseURL, apiKey: env.PROCTOR_EMBEDDINGS_API_KEY }) };
  }
  return configured.embedder;
}

/**
 * Embeds with `embedder`, falling back to the offline embedder when the endpoint fails, so an
 * outage never loses a run; the vectors carry the id of whichever embedder produced them.
 */
export async function embedTexts(embedder: Embedder, texts: string[]): Promise<{ embedderId: string; vectors: number[][] }> {
  if (texts.length === 0) return { embedderId: embedder.id, vectors: [] };
  if (embedder !== offlineEmbedder) {
    try {
      return { embedderId: embedder.id, vectors: await embedder.embed(texts) };
    } catch (e) {
      console.error(`embeddings: ${embedder.id} failed (${(e as Error)?.name ?? "error"}); using ${offlineEmbedder.id}`);
    }
  }
  return { embedderId: offlineEmbedder.id, vectors: await offlineEmbedder.embed(texts) };
}

/**
 * embedTexts as PostgreSQL array literals, the form ingestion stores: the offline embedder writes
 * them from its few non-zero coordinates (a dense 512-number vector and its join cost a batch
 * run more CPU and garbage than the rest of its embedding).
 */
export async function embedArrayLiterals(embedder: Embedder, texts: string[]): Promise<{ embedderId: string; literals: string[] }> {
  if (embedder === offlineEmbedder) return { embedderId: offlineEmbedder.id, literals: await mapInSlices(texts, (t) => offlineEmbedder.arrayLiteral(t)) };
  const { embedderId, vectors } = await embedTexts(embedder, texts);
  return { embedderId, literals: vectors.map((v) => `{${v.join(",")}}`) };
}

/** Whether vectors with this id are the offline embedder's (this version's or an earlier one's). */
export function isOfflineSpace(id: string): boolean {
  return id === offlineEmbedder.id || offlineEmbedder.previousIds.includes(id);
}

/** The embedder that produced vectors with this id, when this process can still produce them. */
export function embedderForId(id: string, current: Embedder = defaultEmbedder()): Embedder | null {
  if (id === current.id) return current;
  if (isOfflineSpace(id)) return offlineEmbedder;
  return null;
}
