// Workflow ingestion: one atomic write per request (a single run is a batch of one).
// Everything per run is computed first (validation, trajectory identity, outcome, embedding);
// then ONE statement inserts the new runs and, from exactly the rows it inserted, maintains the
// trajectory-class statistics, the distinct-query child table, the daily counts, write-time
// stamping, the agent's counters and the shadow evaluation outbox. A run commits in that one
// round trip; the run that crosses the promotion cadence takes a second one (cadenceSql: see
// ./ingest-sql.ts for why it cannot share the statement); runs that report activated skills take
// a transaction so that outcome monitoring (the monitor hook) commits with them.
// Rows are fed in key order so concurrent batches lock rows in one order.
//
// This is the agents' hot path, held to `npm run bench:ingest`'s targets (batches: at most
// 0.15 ms of server CPU per run; single runs: at most 2× the framework floor's CPU), which is
// why it is built this way (figures and their history: docs/benchmarks.md#ingest):
// - The statements go through the plain pg pool (queryRows) outside a transaction, and on
//   PostgreSQL the insert and cadence statements are prepared once per connection. Through
//   Prisma the rows parameter (about 3 KB per run) would cross its query compiler on every
//   request and PostgreSQL would parse and plan the insert every time: about twice the batch
//   path's server CPU.
// - Validation stays zod's (workflowInput): a small share of a run's preparation, beside its
//   trajectory identity (./canonical.ts) and embedding.
// - Garbage collection is a large share of the batch path's CPU, so a run's data is written
//   once and short-lived: the steps are serialized once for both the body hash and the stored
//   row (stepsJson, rowJson); the rows string is one flat join (pg's byte count would copy a
//   bracketed concatenation); the offline embedder writes the vector's array literal from its
//   few non-zero coordinates (embedArrayLiterals); the nesting check writes a path only for a
//   problem (../../db/storable-text.ts); flat tool arguments skip the path set and the built-in
//   sort (./canonical.ts). `npm start` gives V8 64 MiB semi-spaces, so a batch's parsed runs
//   die young instead of being copied and promoted.
// - The stored embedding holds plain term counts: inverse document frequencies are applied when
//   skills are scored (../inject/term-weights.ts), so ingestion never reads them.
import { hash, randomUUID } from "node:crypto";
import { queryRows, type Db, type Tx } from "../../db/prisma";
import { perDatabase } from "../../db/per-database";
import { workflowInput, type WorkflowInput, type WorkflowCreated, type BatchItemResult } from "./schemas";
import { canonicalIdentity, normalizeQuery, type CanonicalIdentity } from "./canonical";
import { decideOutcome, type OutcomeDecision, type OutcomeSource } from "./outcome";
import { defaultEmbedder, embedArrayLiterals, type Embedder } from "../inject/embedder";
import { afterRunsStored, type StoredRun } from "../monitor/monitor";
import { resolveLearningConfig, runUserScope, type LearningConfig } from "../agents/config";
import { newId } from "../../db/row-ids";
import { cadenceSql, insertRunsSql, readStoredSql } from "./ingest-sql";
import { inStoreTurn } from "./turns";
import { mapInSlices } from "../../slices";
import { shadowEligible } from "../shadow/enqueue";
import { Conflict } from "../../errors";
import { agentDeleting, agentNotFound } from "../errors";

export type IngestOptions = { embedder?: Embedder; now?: Date };

type Prepared = {
  index: number;
  id: string;
  workflowId: string;
  input: WorkflowInput;
  /** JSON of input.steps, written once for both the body hash and the stored row. */
  stepsJson: string;
  bodyHash: string;
  identity: CanonicalIdentity;
  decision: OutcomeDecision;
  /** The class's user scope under the agent's learning scope (runUserScope). */
  userScope: string;
  normalizedQuery: string;
  createdAt: Date;
};

type StoredRow = {
  id: string;
  workflow_id: string;
  body_hash: string;
  canonical_hash: string | null;
  step_count: number;
  outcome: "SUCCESS" | "FAILURE";
  outcome_source: OutcomeSource;
  promoted_skill_id: string | null;
};

/**
 * What ingestion needs of an agent, as last read. Only a guess: the insert statement compares the
 * outcome rule and learning configuration with the stored ones in its own snapshot and inserts
 * nothing when they differ, so a change is re-read and the runs judged again. Saves a round trip
 * per request in the steady state. Per process, and right in a fleet for the same reason: a change
 * made through another process is caught by the next insert here (docs/fleet-state.md).
 */
type AgentSettings = { outcomeRule: unknown; learning: unknown; config: LearningConfig };
const knownAgents = perDatabase(() => new Map<string, AgentSettings>());
const MAX_KNOWN_AGENTS = 10_000;

async function readAgent(db: Db, agentId: string): Promise<AgentSettings> {
  const known = knownAgents(db);
  const [agent] = await db.$queryRaw<{ outcome_rule: unknown; learning: unknown; deleting: boolean }[]>`
    SELECT outcome_rule, learning, deleting_at IS NOT NULL AS deleting FROM agents WHERE id = ${agentId}`;
  if (!agent || agent.deleting) {
    known.delete(agentId);
    throw agent ? agentDeleting(agentId) : agentNotFound(agentId);
  }
  const settings = { outcomeRule: agent.outcome_rule ?? null, learning: agent.learning, config: resolveLearningConfig(agent.learning) };
  if (known.size >= MAX_KNOWN_AGENTS) known.delete(known.keys().next().value as string);
  known.set(agentId, settings);
  return settings;
}

/** Whether storing these runs needs the monitor hook (outcome monitoring) in the same transaction. */
const needsMonitor = (runs: Prepared[]) => runs.some((p) => (p.input.skills_activated?.length ?? 0) > 0);

type Inserted = { id: string | null; promoted_skill_id: string | null; cycle_due: boolean };

/** Stores runs for one agent; each item is validated and succeeds or fails on its own. Unknown agent → NotFound. */
export function ingestWorkflows(db: Db, agentId: string, items: readonly unknown[], opts: IngestOptions = {}): Promise<BatchItemResult[]> {
  return inStoreTurn(() => ingestInTurn(db, agentId, items, opts));
}

async function ingestInTurn(db: Db, agentId: string, items: readonly unknown[], opts: IngestOptions): Promise<BatchItemResult[]> {
  const results: BatchItemResult[] = new Array(items.length);
  const valid: Item[] = [];
  (await mapInSlices(items, (item) => workflowInput.safeParse(item))).forEach((parsed, index) => {
    if (parsed.success) valid.push({ index, input: parsed.data });
    else
      results[index] = {
        index,
        status: 400,
        error: {
          code: "validation_error",
          detail: "The workflow is invalid.",
          errors: parsed.error.issues.map((i) => ({ path: "/" + i.path.map(String).join("/"), message: i.message })),
        },
      };
  });
  for (const r of await storeRuns(db, agentId, valid, opts)) {
    results[r.index] =
      r.status === 409
        ? { index: r.index, status: 409, workflow_id: r.workflowId, error: { code: "conflict", detail: r.detail } }
        : { index: r.index, status: r.status, ...r.run };
  }
  return results;
}

/** Stores one run: 201 when new, 200 for an identical re-send; Conflict when its workflow_id holds another body. */
export async function ingestWorkflow(
  db: Db,
  agentId: string,
  input: WorkflowInput,
  opts: IngestOptions = {},
): Promise<{ status: 200 | 201; run: WorkflowCreated }> {
  const [r] = await storeRuns(db, agentId, [{ index: 0, input }], opts);
  if (r.status === 409) throw new Conflict(r.detail);
  return { status: r.status, run: r.run };
}

type Item = { index: number; input: WorkflowInput };
type Stored = { index: number; status: 200 | 201; run: WorkflowCreated } | { index: number; status: 409; workflowId: string; detail: string };

async function storeRuns(db: Db, agentId: string, items: Item[], opts: IngestOptions): Promise<Stored[]> {
  let agent = knownAgents(db).get(agentId) ?? (await readAgent(db, agentId));
  if (items.length === 0) return [];
  const now = opts.now ?? new Date();
  const prepared = await mapInSlices(items, ({ index, input }) => prepare(index, input, agent, now));

  // The first occurrence of a workflow_id is the one inserted; later ones are judged against it.
  const firstOf = new Map<string, Prepared>();
  for (const p of prepared) if (!firstOf.has(p.workflowId)) firstOf.set(p.workflowId, p);
  const toInsert = [...firstOf.values()].sort((a, b) => (a.workflowId < b.workflowId ? -1 : a.workflowId > b.workflowId ? 1 : 0));

  // Embeddings are fetched before writing: no network wait while holding locks.
  const { embedderId, literals } = await embedArrayLiterals(opts.embedder ?? defaultEmbedder(), toInsert.map((p) => p.input.query));

  const write = async (q: Db | Tx, monitored: boolean): Promise<StoredRow[] | null> => {
    // One join writes the array as one flat string: wrapping the join in brackets made a
    // concatenation that pg's byte count copied again (1.8 MB per batch of 500).
    const parts = await mapInSlices(toInsert, (p, i) => rowJson(p, literals[i], embedderId));
    parts[0] = `[${parts[0]}`;
    parts[parts.length - 1] += "]";
    const rows = parts.join(",");
    const inserted = await queryRows<Inserted>(
      q,
      insertRunsSql({
        agentId,
        rows,
        outcomeRule: agent.outcomeRule === null ? null : JSON.stringify(agent.outcomeRule),
        learning: JSON.stringify(agent.learning),
        every: agent.config.promotion_every_n_runs,
        queueSize: agent.config.shadow_evaluation_enabled ? agent.config.shadow_evaluation_queue_size : null,
      }),
      "ingest_insert_runs",
    );
    if (inserted.length === 0) return null; // no guard row: the agent's settings changed meanwhile, or its deletion started
    if (inserted[0].cycle_due) await queryRows(q, cadenceSql(agentId, agent.config.promotion_every_n_runs), "ingest_cadence");
    const promoted = new Map(inserted.flatMap((r) => (r.id ? [[r.id, r.promoted_skill_id] as const] : [])));
    const newRuns = toInsert.filter((p) => promoted.has(p.id));
    if (monitored && newRuns.length > 0) await afterRunsStored(q as Tx, agentId, newRuns.map(storedRun), agent.config);
    // Re-read what is stored only when it may differ from what was just written: a workflow_id
    // repeated or already stored (possibly by a concurrent request), or a run the monitor may
    // have unstamped by demoting its skill.
    return prepared.length > newRuns.length || monitored
      ? queryRows<StoredRow>(q, readStoredSql(agentId, JSON.stringify([...firstOf.keys()])))
      : newRuns.map((p) => writtenRow(p, promoted.get(p.id) ?? null));
  };

  let current: StoredRow[] | null = null;
  for (let attempt = 1; current === null; attempt++) {
    if (attempt > 1) {
      if (attempt > 3) throw new Error("the agent's settings kept changing during ingestion");
      agent = await readAgent(db, agentId);
      for (const p of prepared) {
        p.decision = decideOutcome(p.input, agent.outcomeRule, p.identity);
        p.userScope = runUserScope(agent.config, p.input.user_id);
      }
    }
    current = needsMonitor(toInsert)
      ? await db.$transaction((tx) => write(tx, true), { maxWait: 15_000, timeout: 60_000 })
      : await write(db, false);
  }
  const byWorkflowId = new Map(current.map((r) => [r.workflow_id, r]));

  return prepared.map((p): Stored => {
    const row = byWorkflowId.get(p.workflowId);
    if (!row) throw new Error("ingested workflow is missing after commit");
    const created = row.id === p.id;
    if (!created && row.body_hash !== p.bodyHash) {
      return { index: p.index, status: 409, workflowId: p.workflowId, detail: `Workflow '${p.workflowId}' was already stored with a different body.` };
    }
    return { index: p.index, status: created ? 201 : 200, run: { ...createdView(row), duplicate: !created } };
  });
}

function writtenRow(p: Prepared, promotedSkillId: string | null): StoredRow {
  return {
    id: p.id,
    workflow_id: p.workflowId,
    body_hash: p.bodyHash,
    canonical_hash: p.identity.hash,
    step_count: p.identity.stepCount,
    outcome: p.decision.outcome,
    outcome_source: p.decision.source,
    promoted_skill_id: promotedSkillId,
  };
}

function prepare(index: number, input: WorkflowInput, agent: AgentSettings, now: Date): Prepared {
  const identity = canonicalIdentity(input.steps);
  const stepsJson = JSON.stringify(input.steps);
  return {
    index,
    id: newId(),
    workflowId: input.workflow_id ?? `wf_${randomUUID()}`,
    input,
    stepsJson,
    bodyHash: bodyHash(input, stepsJson),
    identity,
    decision: decideOutcome(input, agent.outcomeRule, identity),
    // The learning scope decides the class: the account's own ("user") or the agent-wide one.
    userScope: runUserScope(agent.config, input.user_id),
    normalizedQuery: normalizeQuery(input.query),
    createdAt: input.created_at ? new Date(input.created_at) : now,
  };
}

/**
 * Identity of a request body for idempotency: the JSON of the validated body. Validation lays
 * out the top-level and step fields in one order and drops absent-or-null fields, so a retry
 * that spells them differently is still identical; within arguments and results the JSON is
 * compared as sent. (A deep key sort cost more than the rest of a run's preparation.)
 */
export function bodyHash(input: WorkflowInput, stepsJson = JSON.stringify(input.steps)): string {
  // JSON.stringify of the present fields, written key by key to reuse the steps' JSON.
  let json = "";
  for (const k of Object.keys(input)) {
    const v = input[k];
    const value = v === null || v === undefined ? undefined : k === "steps" ? stepsJson : JSON.stringify(v);
    if (value !== undefined) json += `${json ? "," : "{"}${JSON.stringify(k)}:${value}`;
  }
  return hash("sha256", json ? `${json}}` : "{}", "hex");
}

/**
 * A row of the insert statement's JSON array: insertRow's fields, then the canonical signature,
 * the embedding and the steps' JSON, each written once. `embedding` is a PostgreSQL array literal (parsed by its array
 * input, far cheaper than JSON numbers) of digits, signs, dots, commas and braces: nothing to escape.
 */
function rowJson(p: Prepared, embedding: string, embedderId: string): string {
  return `${JSON.stringify(insertRow(p, embedderId)).slice(0, -1)},"canonical_signature":${p.identity.signatureJson},"embedding":"${embedding}","steps":${p.stepsJson}}`;
}

function insertRow(p: Prepared, embedderId: string) {
  const i = p.input;
  return {
    id: p.id,
    workflow_id: p.workflowId,
    user_id: i.user_id ?? null,
    user_scope: p.userScope,
    thread_id: i.thread_id ?? null,
    root_trace_id: i.root_trace_id ?? null,
    query: i.query,
    normalized_query: p.normalizedQuery,
    execution_error: i.execution_error ?? null,
    answer: i.answer ?? null,
    outcome: p.decision.outcome,
    outcome_source: p.decision.source,
    learning_error: p.decision.learningError,
    canonical_hash: p.identity.hash,
    canonical_version: p.identity.version,
    step_count: p.identity.stepCount,
    tools: p.identity.tools,
    skills_activated: i.skills_activated ?? [],
    embedder_id: embedderId,
    body_hash: p.bodyHash,
    created_at: p.createdAt.toISOString(),
    shadow_eligible: shadowEligible({ canonicalHash: p.identity.hash, query: i.query, stepCount: p.identity.stepCount, createdAt: p.createdAt }),
  };
}

function storedRun(p: Prepared): StoredRun {
  return {
    id: p.id,
    userScope: p.userScope,
    canonicalHash: p.identity.hash,
    outcome: p.decision.outcome,
    skillsActivated: p.input.skills_activated ?? [],
    createdAt: p.createdAt,
  };
}

function createdView(row: StoredRow) {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    canonical_hash: row.canonical_hash,
    step_count: row.step_count,
    outcome: row.outcome === "SUCCESS" ? ("success" as const) : ("failure" as const),
    outcome_source: row.outcome_source.toLowerCase() as WorkflowCreated["outcome_source"],
    promoted_skill_id: row.promoted_skill_id,
  };
}
