// Whether a trajectory class's queries share an intent, measured on the queries themselves: the
// same tool path can serve unrelated requests ("hello there", "do the thing"), and a skill
// distilled from them would be injected for anything. The template distiller refuses such a
// class (INSUFFICIENT) and names a coherent one from its shared terms; the deterministic judge
// rejects wording that names none of them.
import { contentTerms, type Term } from "./content-terms";

/** A class needs at least this many terms shared by the queries... */
export const MIN_SHARED_TERMS = 1;
/** ...and this mean pairwise cosine between the queries' term sets. */
export const MIN_MEAN_SIMILARITY = 0.2;

export type SharedTerm = { term: string; word: string; queries: number };

export type ClassIntent =
  | { ok: true; shared: SharedTerm[]; contentQueries: number }
  | { ok: false; reason: string; shared: SharedTerm[]; contentQueries: number };

/** A term is shared when it appears in at least half the queries that carry content (and in two of them, when there are two). */
function needed(n: number): number {
  return n < 2 ? 1 : Math.max(2, Math.ceil(n / 2));
}

function meanPairwiseCosine(sets: Set<string>[]): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      let common = 0;
      for (const t of sets[i]) if (sets[j].has(t)) common++;
      sum += common / Math.sqrt(sets[i].size * sets[j].size);
      pairs++;
    }
  }
  return pairs === 0 ? 1 : sum / pairs;
}

/**
 * The terms most of the queries share, in the order they usually appear ("refund order", not
 * "order refund"), each with its most frequent surface word.
 */
export function sharedTerms(queries: string[]): { shared: SharedTerm[]; perQuery: Term[][] } {
  const perQuery = queries.map((q) => contentTerms(q)).filter((t) => t.length > 0);
  const stats = new Map<string, { queries: number; position: number; words: Map<string, number> }>();
  for (const terms of perQuery) {
    const seen = new Set<string>();
    terms.forEach((t, i) => {
      const s = stats.get(t.term) ?? { queries: 0, position: 0, words: new Map<string, number>() };
      s.words.set(t.word, (s.words.get(t.word) ?? 0) + 1);
      if (!seen.has(t.term)) {
        seen.add(t.term);
        s.queries++;
        s.position += terms.length > 1 ? i / (terms.length - 1) : 0;
      }
      stats.set(t.term, s);
    });
  }
  const need = needed(perQuery.length);
  const shared = [...stats.entries()]
    .filter(([, s]) => s.queries >= need)
    .sort((a, b) => a[1].position / a[1].queries - b[1].position / b[1].queries || b[1].queries - a[1].queries)
    .map(([term, s]) => ({ term, word: [...s.words.entries()].sort((a, b) => b[1] - a[1])[0][0], queries: s.queries }));
  return { shared, perQuery };
}

/** Shared intent of the class's distinct queries; `required`: how many of them must carry content. */
export function classIntent(queries: string[], required: number): ClassIntent {
  const { shared, perQuery } = sharedTerms(queries);
  const contentQueries = perQuery.length;
  const refuse = (reason: string): ClassIntent => ({ ok: false, reason, shared, contentQueries });
  if (contentQueries < required) {
    return refuse(`only ${contentQueries} of the ${queries.length} sampled queries carry content terms (${required} needed)`);
  }
  if (shared.length < MIN_SHARED_TERMS) {
    return refuse(`the queries share no intent: no content term appears in ${needed(contentQueries)} of the ${contentQueries} queries that carry content`);
  }
  const similarity = meanPairwiseCosine(perQuery.map((terms) => new Set(terms.map((t) => t.term))));
  if (similarity < MIN_MEAN_SIMILARITY) {
    return refuse(`the queries share no intent: mean pairwise similarity ${similarity.toFixed(2)} < ${MIN_MEAN_SIMILARITY}`);
  }
  return { ok: true, shared, contentQueries };
}

/** Whether `text` names at least one of the shared terms. */
export function namesIntent(text: string, shared: SharedTerm[]): boolean {
  const terms = new Set(shared.map((s) => s.term));
  return contentTerms(text).some((t) => terms.has(t.term));
}
