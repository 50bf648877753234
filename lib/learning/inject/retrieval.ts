// Skill retrieval for context assembly (ACTIVE skills) and for passive shadow evaluation
// (SHADOW candidates). Status, agent and user scopes are filtered BEFORE the top-k: only the
// skills of the agent in the wanted status and in the request's scopes are ever scored: the
// agent-wide scope "", plus the account's own under learning_scope "user" (skillScopesFor in
// ../agents/config.ts). Their vectors are cached per process, keyed by (agent, scope) and checked against the agent's
// skills_version, which every lifecycle change bumps in the same transaction, so a cache is
// never stale across processes.
// Skills in the offline embedder's space are scored on their applicability texts embedded with the
// agent's term weights (./term-weights.ts), which change with its recent queries: that matrix is
// rebuilt whenever the weights are, not read from the stored (unweighted) vectors. An imported
// skill (no runs, so its trigger phrases are clauses of its own description) scores the better of
// that cosine and its coverage of the request (coverageScore in ./applicability.ts).
import type { Db } from "../../db/prisma";
import { perDatabase } from "../../db/per-database";
import { skillScopesFor, type LearningConfig } from "../agents/config";
import { termSet } from "../classes/content-terms";
import { applicabilityTexts, bestScores, coverageScore, coverageTerms, IMPORT_CLASS_PREFIX, packVectors, type ApplicabilityFields, type CoverageTerms, type VectorMatrix } from "./applicability";
import { defaultEmbedder, embedderForId, isOfflineSpace, offlineEmbedder, type Embedder } from "./embedder";
import { agentTermWeights, type TermWeights } from "./term-weights";
import type { RenderedSkill } from "./context";

type SkillMeta = Omit<RenderedSkill, "similarity">;

type Status = "ACTIVE" | "SHADOW";

/** A request in the offline space under one set of term weights. */
type OfflineQuery = { weights: TermWeights; vector: ReturnType<typeof offlineEmbedder.embedOne>; terms: ReturnType<typeof termSet> };

/**
 * The scope's skills of one status and their applicability vectors: one packed matrix per
 * external embedder space, and the offline skills' texts with their matrix under the weights it
 * was built with.
 */
type Entry = {
  version: number;
  skills: SkillMeta[];
  spaces: Map<string, VectorMatrix>;
  offlineTexts: { index: number; texts: string[]; fields: ApplicabilityFields; imported: boolean }[];
  offline: { weights: TermWeights; matrix: VectorMatrix; coverage: { index: number; terms: CoverageTerms }[] } | null;
};

const MAX_ENTRIES = 2000;
const entries = perDatabase(() => new Map<string, Entry>());

type Row = {
  id: string;
  name: string;
  version: number;
  injection_role: "USER" | "DEVELOPER";
  content: string;
  source_canonical_hash: string;
  source_workflow_ids: string[];
  embedder_id: string;
  embedding: number[];
  query_embeddings: unknown;
  description: string;
  preconditions: string[];
  queries: string[];
};

async function scopeSkills(db: Db, agentId: string, userScope: string, skillsVersion: number, status: Status): Promise<Entry> {
  const key = `${status}\u0000${agentId}\u0000${userScope}`;
  const cache = entries(db);
  const hit = cache.get(key);
  if (hit && hit.version === skillsVersion) return hit;
  const rows = await db.$queryRaw<Row[]>`
    SELECT id, name, version, injection_role::text AS injection_role, content, source_canonical_hash, source_workflow_ids,
           embedder_id, embedding, query_embeddings, description, preconditions, queries
    FROM skills WHERE agent_id = ${agentId} AND user_scope = ${userScope} AND status = ${status}::"SkillStatus"`;
  const skills: SkillMeta[] = rows.map((r) => ({
    skillId: r.id,
    name: r.name,
    version: r.version,
    injectionRole: r.injection_role === "DEVELOPER" ? "developer" : "user",
    content: r.content,
    sourceCanonicalHash: r.source_canonical_hash,
    sourceWorkflowIds: r.source_workflow_ids,
  }));
  const bySpace = new Map<string, { index: number; vectors: number[][] }[]>();
  const offlineTexts: Entry["offlineTexts"] = [];
  rows.forEach((r, index) => {
    if (isOfflineSpace(r.embedder_id)) {
      offlineTexts.push({ index, texts: applicabilityTexts(r), fields: r, imported: r.source_canonical_hash.startsWith(IMPORT_CLASS_PREFIX) });
      return;
    }
    const vectors = [r.embedding, ...(Array.isArray(r.query_embeddings) ? (r.query_embeddings as number[][]) : [])];
    bySpace.set(r.embedder_id, [...(bySpace.get(r.embedder_id) ?? []), { index, vectors }]);
  });
  const spaces = new Map<string, VectorMatrix>();
  for (const [id, list] of bySpace) spaces.set(id, packVectors(list[0].vectors[0]?.length ?? 0, list));
  const entry: Entry = { version: skillsVersion, skills, spaces, offlineTexts, offline: null };
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
  return entry;
}

/**
 * ACTIVE skills this account (null: none) may receive from the agent, at or above the threshold,
 * best first, at most the cap: the agent-wide ones, plus its own under learning_scope "user".
 */
export async function retrieveSkills(
  db: Db,
  agent: { id: string; skillsVersion: number },
  userId: string | null,
  query: string,
  config: Pick<LearningConfig, "retrieval_min_similarity" | "max_skills_in_context" | "learning_scope">,
  current: Embedder = defaultEmbedder(),
): Promise<RenderedSkill[]> {
  const opts = { status: "ACTIVE", minSimilarity: config.retrieval_min_similarity, limit: config.max_skills_in_context } as const;
  return scoreSkills(db, agent, skillScopesFor(config, userId), query, opts, current);
}

/** Skills of one status in these user scopes of the agent at or above `minSimilarity`, best first, at most `limit`. */
export async function scoreSkills(
  db: Db,
  agent: { id: string; skillsVersion: number },
  userScopes: string[],
  query: string,
  opts: { status: Status; minSimilarity: number; limit: number },
  current: Embedder = defaultEmbedder(),
): Promise<RenderedSkill[]> {
  const scored: RenderedSkill[] = [];
  // The query is embedded once per embedder space, whichever scopes have skills there.
  const queryVectors = new Map<string, Promise<number[] | null>>();
  const embedQuery = (embedderId: string) => {
    if (!queryVectors.has(embedderId)) {
      const embedder = embedderForId(embedderId, current);
      queryVectors.set(embedderId, embedder ? embedder.embed([query]).then((v) => v[0] ?? null, () => null) : Promise.resolve(null));
    }
    return queryVectors.get(embedderId)!;
  };
  // Likewise in the offline space: the query's weighted vector and terms, once per term weights.
  let offline: OfflineQuery | null = null;
  const offlineQuery = (weights: TermWeights): OfflineQuery => {
    if (offline?.weights !== weights) {
      offline = { weights, vector: offlineEmbedder.embedOne(query, weights.weight, weights.vocabulary), terms: termSet(query, weights.vocabulary) };
    }
    return offline;
  };
  for (const userScope of new Set(userScopes)) {
    const entry = await scopeSkills(db, agent.id, userScope, agent.skillsVersion, opts.status);
    if (entry.skills.length > 0) await scoreEntry(db, agent, entry, opts.minSimilarity, embedQuery, offlineQuery, scored);
  }
  // Ties (two versions of one intent score alike) go by the procedure's class, then the id: ids
  // are random, so a deployment replaying the same runs would otherwise inject another skill.
  return scored
    .sort((a, b) => b.similarity - a.similarity || a.sourceCanonicalHash.localeCompare(b.sourceCanonicalHash) || a.skillId.localeCompare(b.skillId))
    .slice(0, opts.limit);
}

/** Adds the entry's skills scoring at or above `minSimilarity` to `scored`. */
async function scoreEntry(
  db: Db,
  agent: { id: string; skillsVersion: number },
  entry: Entry,
  minSimilarity: number,
  embedQuery: (embedderId: string) => Promise<number[] | null>,
  offlineQuery: (weights: TermWeights) => OfflineQuery,
  scored: RenderedSkill[],
): Promise<void> {
  const { skills, spaces } = entry;
  const keep = (best: Float32Array) =>
    best.forEach((similarity, i) => {
      if (similarity >= minSimilarity) scored.push({ ...skills[i], similarity });
    });
  // Vectors are only comparable within one embedder's space: the query is embedded once per space.
  for (const [embedderId, matrix] of spaces) {
    const vector = await embedQuery(embedderId);
    if (vector) keep(bestScores(matrix, vector, skills.length));
  }
  if (entry.offlineTexts.length) {
    const weights = await agentTermWeights(db, agent.id, agent.skillsVersion);
    if (entry.offline?.weights !== weights) {
      const weighted = entry.offlineTexts.map((s) => ({ index: s.index, vectors: s.texts.map((t) => offlineEmbedder.embedOne(t, weights.weight, weights.vocabulary)) }));
      const coverage = entry.offlineTexts.filter((s) => s.imported).map((s) => ({ index: s.index, terms: coverageTerms(s.fields, weights.vocabulary) }));
      entry.offline = { weights, matrix: packVectors(offlineEmbedder.dimensions, weighted), coverage };
    }
    const q = offlineQuery(weights);
    const best = bestScores(entry.offline.matrix, q.vector, skills.length);
    // An imported skill also scores by how well its own words cover the request (coverageScore).
    for (const c of entry.offline.coverage) best[c.index] = Math.max(best[c.index], coverageScore(q.terms, c.terms, weights.weight));
    keep(best);
  }
}
