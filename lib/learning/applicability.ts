// Skill applicability: WHEN a skill applies, never HOW. The embedding input is the name,
// description, preconditions and sampled trigger queries only (no procedure, no tool
// sequence). Each trigger query is also embedded on its own, and a query's applicability is
// its best similarity over the description vector and the trigger-query vectors: a trigger
// query or a light paraphrase of one clears the 0.70 default, an unrelated request does not.
import { embedTexts, type Embedder } from "./embedder";

export type ApplicabilityFields = { name: string; description: string; preconditions: string[]; queries: string[] };

export function applicabilityText(s: ApplicabilityFields): string {
  return [s.name, s.description, s.preconditions.join(" "), s.queries.join(" ")].join(" ").trim();
}

export type ApplicabilityVectors = { embedderId: string; embedding: number[]; queryEmbeddings: number[][] };

export async function applicabilityVectors(embedder: Embedder, s: ApplicabilityFields): Promise<ApplicabilityVectors> {
  const { embedderId, vectors } = await embedTexts(embedder, [applicabilityText(s), ...s.queries]);
  return { embedderId, embedding: vectors[0], queryEmbeddings: vectors.slice(1) };
}

/** The vector scaled to length 1 (zero stays zero), so that similarity is a plain dot product. */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  const k = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * k;
  return out;
}

/** The best similarity over a skill's unit vectors: a dot product each (vectors of another length never match). */
export function unitApplicabilityScore(query: Float32Array, vectors: Float32Array[]): number {
  let best = 0;
  for (const v of vectors) {
    if (v.length !== query.length) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += query[i] * v[i];
    if (dot > best) best = dot;
  }
  return best;
}

