// Skill retrieval for context assembly. Status, agent and user scope are filtered BEFORE the
// top-k: only the ACTIVE skills of (agent, user scope) are ever scored. Their vectors are
// cached per process, keyed by (agent, scope) and checked against the agent's
// skills_version, which every lifecycle change bumps in the same transaction, so a cache is
// never stale across processes.
import type { Db } from "../db/prisma";
import type { LearningConfig } from "./config";
import { unitApplicabilityScore, unitVector } from "./applicability";
import { defaultEmbedder, embedderForId, type Embedder } from "./embedder";
import type { RenderedSkill } from "./context";

/** Unit vectors: the description vector first, then one per trigger query. */
type CachedSkill = Omit<RenderedSkill, "similarity"> & { embedderId: string; vectors: Float32Array[] };

type Entry = { version: number; skills: CachedSkill[] };

const MAX_ENTRIES = 2000;
const cache = new Map<string, Entry>();

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
};

async function activeSkills(db: Db, agentId: string, userScope: string, skillsVersion: number): Promise<CachedSkill[]> {
  const key = `${agentId}\u0000${userScope}`;
  const hit = cache.get(key);
  if (hit && hit.version === skillsVersion) return hit.skills;
  const rows = await db.$queryRaw<Row[]>`
    SELECT id, name, version, injection_role::text AS injection_role, content, source_canonical_hash, source_workflow_ids,
           embedder_id, embedding, query_embeddings
    FROM skills WHERE agent_id = ${agentId} AND user_scope = ${userScope} AND status = 'ACTIVE'`;
  const skills = rows.map((r) => ({
    skillId: r.id,
    name: r.name,
    version: r.version,
    injectionRole: r.injection_role === "DEVELOPER" ? ("developer" as const) : ("user" as const),
    content: r.content,
    sourceCanonicalHash: r.source_canonical_hash,
    sourceWorkflowIds: r.source_workflow_ids,
    embedderId: r.embedder_id,
    vectors: [r.embedding, ...(Array.isArray(r.query_embeddings) ? (r.query_embeddings as number[][]) : [])].map(unitVector),
  }));
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { version: skillsVersion, skills });
  return skills;
}

/** ACTIVE skills of this agent and user scope at or above the threshold, best first, at most the cap. */
export async function retrieveSkills(
  db: Db,
  agent: { id: string; skillsVersion: number },
  userScope: string,
  query: string,
  config: Pick<LearningConfig, "retrieval_min_similarity" | "max_skills_in_context">,
  current: Embedder = defaultEmbedder(),
): Promise<RenderedSkill[]> {
  const skills = await activeSkills(db, agent.id, userScope, agent.skillsVersion);
  if (skills.length === 0) return [];
  // Vectors are only comparable within one embedder's space: embed the query once per space.
  const queryVectors = new Map<string, Float32Array | null>();
  const scored: RenderedSkill[] = [];
  for (const s of skills) {
    if (!queryVectors.has(s.embedderId)) {
      const embedder = embedderForId(s.embedderId, current);
      const vector = embedder ? (await embedder.embed([query]).catch(() => [null]))[0] : null;
      queryVectors.set(s.embedderId, vector ? unitVector(vector) : null);
    }
    const q = queryVectors.get(s.embedderId);
    if (!q) continue;
    const similarity = unitApplicabilityScore(q, s.vectors);
    if (similarity >= config.retrieval_min_similarity) {
      const { embedderId: _e, vectors: _v, ...rest } = s;
      scored.push({ ...rest, similarity });
    }
  }
  return scored.sort((a, b) => b.similarity - a.similarity || a.skillId.localeCompare(b.skillId)).slice(0, config.max_skills_in_context);
}
