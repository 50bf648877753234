// Skill applicability: WHEN a skill applies, never HOW. The embedding input is the name,
// description, preconditions and sampled trigger queries only (no procedure, no tool
// sequence). Each trigger query is also embedded on its own, and a query's applicability is
// its best similarity over the description vector and the trigger-query vectors: a trigger
// query or a light paraphrase of one clears the 0.70 default, an unrelated request does not.
import { termSet, type Vocabulary } from "../classes/content-terms";
import { embedTexts, type Embedder, type TermWeight } from "./embedder";

export type ApplicabilityFields = { name: string; description: string; preconditions: string[]; queries: string[] };

/**
 * Stems every skill's description uses about itself ("use this skill", "when users ask"): they
 * never make a trigger phrase or a coverage match on their own.
 */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(["us", "skill", "user", "claude", "ask", "request", "want", "need", "help", "task", "trigger"]);

export function applicabilityText(s: ApplicabilityFields): string {
  return [s.name, s.description, s.preconditions.join(" "), s.queries.join(" ")].join(" ").trim();
}

/** What is embedded for a skill: its applicability text, then each trigger query. */
export function applicabilityTexts(s: ApplicabilityFields): string[] {
  return [applicabilityText(s), ...s.queries];
}

export type ApplicabilityVectors = { embedderId: string; embedding: number[]; queryEmbeddings: number[][] };

export async function applicabilityVectors(embedder: Embedder, s: ApplicabilityFields): Promise<ApplicabilityVectors> {
  const { embedderId, vectors } = await embedTexts(embedder, applicabilityTexts(s));
  return { embedderId, embedding: vectors[0], queryEmbeddings: vectors.slice(1) };
}

/** The vector scaled to length 1 (zero stays zero), so that similarity is a plain dot product. */
function unitVector(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  const k = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * k;
  return out;
}

/**
 * Unit vectors of many skills packed row by row into one array (one embedder's space, one
 * dimension), for scoring thousands of skills per request: contiguous memory, and only the
 * query's non-zero dimensions are visited (hashed text features are sparse).
 */
export type VectorMatrix = { dim: number; data: Float32Array; owner: Int32Array };

export function packVectors(dim: number, perSkill: { index: number; vectors: ArrayLike<number>[] }[]): VectorMatrix {
  const rows = perSkill.flatMap((s) => s.vectors.filter((v) => v.length === dim).map((v) => ({ index: s.index, v })));
  const data = new Float32Array(rows.length * dim);
  const owner = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    data.set(unitVector(r.v), i * dim);
    owner[i] = r.index;
  });
  return { dim, data, owner };
}

/** Each skill's best similarity to the query (max dot product over its rows); skills without rows score 0. */
export function bestScores(m: VectorMatrix, query: ArrayLike<number>, skillCount: number): Float32Array {
  const best = new Float32Array(skillCount);
  if (query.length !== m.dim) return best;
  const q = unitVector(query);
  const nz: number[] = [];
  for (let j = 0; j < q.length; j++) if (q[j] !== 0) nz.push(j);
  const idx = Int32Array.from(nz);
  const val = Float32Array.from(nz, (j) => q[j]);
  for (let r = 0, base = 0; r < m.owner.length; r++, base += m.dim) {
    let dot = 0;
    for (let k = 0; k < idx.length; k++) dot += val[k] * m.data[base + idx[k]];
    if (dot > best[m.owner[r]]) best[m.owner[r]] = dot;
  }
  return best;
}

/** The source class of an imported skill: this prefix and its folder's digest (no runs stand behind it). */
export const IMPORT_CLASS_PREFIX = "import:";

/**
 * An imported skill's terms for coverage: every term of its applicability text, and each trigger
 * phrase's terms besides the words every description uses about itself (GENERIC_TERMS).
 */
export type CoverageTerms = { vocabulary: ReadonlySet<string>; phrases: ReadonlySet<string>[] };

export function coverageTerms(s: ApplicabilityFields, vocabulary?: Vocabulary): CoverageTerms {
  const phrases = s.queries.map((q) => new Set([...termSet(q, vocabulary)].filter((t) => !GENERIC_TERMS.has(t))));
  return { vocabulary: termSet(applicabilityText(s), vocabulary), phrases: phrases.filter((p) => p.size >= 2) };
}

/**
 * How well an imported skill's own words cover a request (its distinct terms): the geometric
 * mean of the request's weighted share the skill's vocabulary holds and the best weighted share
 * of one trigger phrase the request holds, counting only phrases it shares two terms with.
 * "Write this week's status report for my team" holds all of "status reports" and, besides "week"
 * and "team", only words of the internal-communications skill: 0.74, where its cosine to the
 * phrase is 0.50 (the request's other words dilute it). "What is the status of my order?" shares
 * one term with the phrase: 0.
 */
export function coverageScore(query: ReadonlySet<string>, c: CoverageTerms, weight: TermWeight): number {
  let all = 0;
  let covered = 0;
  for (const t of query) {
    const w = weight(t);
    all += w;
    if (c.vocabulary.has(t)) covered += w;
  }
  if (covered === 0) return 0;
  let best = 0;
  for (const p of c.phrases) {
    let total = 0;
    let held = 0;
    let shared = 0;
    for (const t of p) {
      const w = weight(t);
      total += w;
      if (query.has(t)) {
        held += w;
        shared++;
      }
    }
    if (shared >= 2 && held / total > best) best = held / total;
  }
  return Math.sqrt((covered / all) * best);
}
