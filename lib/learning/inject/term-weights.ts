// Inverse document frequencies of content terms over one agent's collection: its live skills'
// applicability texts and its most recent run queries. Skill retrieval scales the offline
// embedder's term features by them at scoring time, so a term most of the agent's requests
// share ("order") weighs less than the one that tells them apart ("refund"), and "Where is my
// order Z9?" no longer reaches the refund skill. Stored vectors keep plain term counts: ingestion
// never reads frequencies. Per agent, the weights are cached until the skill set changes
// (skills_version) or they are ten minutes old: new runs shift frequencies slowly, and each refresh
// re-weights the cached skill matrices (./retrieval.ts). Per process: in a fleet two processes may
// weigh with copies read up to ten minutes apart, which only nudges scores; the skill set itself
// is never stale anywhere (docs/fleet-state.md).
import type { Db } from "../../db/prisma";
import { perDatabase } from "../../db/per-database";
import { applicabilityText } from "./applicability";
import { ALL_WORDS, termSet, type Vocabulary } from "../classes/content-terms";
import type { TermWeight } from "./embedder";

/** How many of the agent's newest run queries join its skills as documents. */
export const RECENT_QUERIES = 500;
const MAX_AGE_MS = 600_000;
const MAX_AGENTS = 2000;

/**
 * `vocabulary`: every term of the skills' applicability texts, capitalized words included. A
 * capitalized word inside a request is otherwise read as a name and left out; one the agent's
 * skills use ("Slack", "Playwright", "Anthropic") is a product, not a person, and is read. Run
 * queries add none: their capitalized words are the accounts' names.
 */
export type TermWeights = { documents: number; weight: TermWeight; vocabulary: Vocabulary };

/**
 * Smoothed IDF over `skillTexts` and `queries`: a term in every document weighs 1, a rarer one
 * more, an unseen one the most.
 */
export function termWeights(skillTexts: string[], queries: string[] = []): TermWeights {
  const vocabulary = new Set(skillTexts.flatMap((d) => [...termSet(d, ALL_WORDS)]));
  const df = new Map<string, number>();
  for (const d of [...skillTexts, ...queries]) for (const t of termSet(d, vocabulary)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = skillTexts.length + queries.length;
  return { documents: n, weight: (t) => Math.log((n + 1) / ((df.get(t) ?? 0) + 1)) + 1, vocabulary };
}

async function loadTermWeights(db: Db, agentId: string): Promise<TermWeights> {
  const [skills, runs] = await Promise.all([
    db.skill.findMany({ where: { agentId, status: { in: ["ACTIVE", "SHADOW"] } }, select: { name: true, description: true, preconditions: true, queries: true } }),
    db.workflowRun.findMany({ where: { agentId }, orderBy: { createdAt: "desc" }, take: RECENT_QUERIES, select: { query: true } }),
  ]);
  return termWeights(skills.map(applicabilityText), runs.map((r) => r.query));
}

const caches = perDatabase(() => new Map<string, { version: number; at: number; weights: Promise<TermWeights> }>());

/** The agent's term weights; `skillsVersion` as read with the request. */
export function agentTermWeights(db: Db, agentId: string, skillsVersion: number): Promise<TermWeights> {
  const cache = caches(db);
  const hit = cache.get(agentId);
  if (hit && hit.version === skillsVersion && Date.now() - hit.at < MAX_AGE_MS) return hit.weights;
  const weights = loadTermWeights(db, agentId);
  // A failed read is not cached: the next request tries again.
  weights.catch(() => cache.get(agentId)?.weights === weights && cache.delete(agentId));
  cache.delete(agentId);
  if (cache.size >= MAX_AGENTS) cache.delete(cache.keys().next().value!);
  cache.set(agentId, { version: skillsVersion, at: Date.now(), weights });
  return weights;
}
