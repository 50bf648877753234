// Traces received that made no runs (README "OpenTelemetry ingestion"): refused at the export
// because none of their spans is in a convention Proctor reads (./operations/stage-spans.ts), or
// assembled into none (./operations/assemble-traces.ts). They are counted in
// otlp_unmapped_traces per agent (none when no agent could be named) and reason, with one sample
// span's name and attribute keys, so the agent page and the inbox can say what arrived and why it
// made nothing. Never an attribute value or a message: what could name an account in a name or a
// key (e-mail addresses, long numbers, hex ids) is masked too, so a forgotten account leaves
// nothing here, and the rows need no forgetting. They go with their agent (agent deletion) and
// after UNMAPPED_KEEP_DAYS without a new trace.
import { Prisma } from "../db/generated/client";
import { queryRows, type Db } from "../db/prisma";
import { CONVENTIONS, conventionOf, isInvocation, isToolCall } from "./conventions";
import type { StagedSpan } from "./spans";

/** Days an agent-less or agent's row stays after its last trace. */
export const UNMAPPED_KEEP_DAYS = 30;
/** The inbox shows rows that received a trace within this many days. */
export const UNMAPPED_RECENT_DAYS = 7;
/** Rows an agent's page (or the agents list) shows: one per reason, so few. */
export const UNMAPPED_LIST_ROWS = 50;

/** Why a trace made no runs (the stored reasons; README lists them). */
export const UNMAPPED_REASON = {
  noConvention: `none of its spans is in a convention Proctor reads (${CONVENTIONS.map((c) => c.name).join(", ")})`,
  noInvocation: "no agent invocation and no tool call: its spans are model calls or structure only",
  noAgent: "no agent could be named: its tool calls have no agent invocation above them, and no root span names an agent or a service.name",
  undeclared: "its agent is not declared, and PROCTOR_OTLP_AUTO_AGENTS=0 declares none",
  deleted: "its agent was deleted (or is being deleted): declare it again (PUT /api/v1/agents/{id}) to receive its runs",
  refused: (detail: string) => `the ingestion refused its runs: ${detail}`.slice(0, 500),
} as const;

/** Why a trace's spans made no run, in the words of the mapping's rules (runsOfTrace made none). */
export function whyNoRuns(spans: readonly StagedSpan[]): string {
  if (!spans.some((s) => isInvocation(s) || isToolCall(s))) return UNMAPPED_REASON.noInvocation;
  return UNMAPPED_REASON.noAgent;
}

export type UnmappedSample = { name: string; keys: string[] };

/** A word holding an @ inside it (an address); words are split at spaces and slashes by string code, since `[^\s@/]+@` rescanned a long word with no @ from each character. */
const SEPARATORS = /([\s/]+)/;
const EMAIL = /[^@]@[^@]/;
const HEX_ID = /\b[0-9a-f]{8,}(?:-[0-9a-f]{4,})*\b/gi;
const NUMBER = /\d{4,}/g;
const withoutEmails = (text: string) => text.split(SEPARATORS).map((word) => (EMAIL.test(word) ? "…" : word)).join("");
const masked = (text: string, max: number) => withoutEmails(text).replace(HEX_ID, "…").replace(NUMBER, "…").slice(0, max);

const MAX_KEYS = 50;

/**
 * A span that shows what arrived: the earliest span in a convention Proctor reads, else the
 * earliest root (a span whose parent is not in the trace); its name and attribute keys, masked.
 */
export function sampleOf(spans: readonly StagedSpan[]): UnmappedSample {
  const ids = new Set(spans.map((s) => s.spanId));
  const known = spans.filter((s) => conventionOf(s) !== null);
  const roots = spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
  const from = known.length ? known : roots.length ? roots : spans;
  const earliest = from.reduce((a, b) => (b.startNs.length < a.startNs.length || (b.startNs.length === a.startNs.length && b.startNs < a.startNs) ? b : a));
  const keys = Object.keys(earliest.attributes).sort().slice(0, MAX_KEYS).map((k) => masked(k, 128));
  return { name: masked(earliest.name, 200), keys };
}

export type UnmappedTrace = { agentId: string | null; reason: string; spans: number; sample: UnmappedSample };

/**
 * The upsert of aggregated rows (`source` selects agent_id, reason, traces, spans,
 * sample_span_name, sample_attribute_keys, at most one row per agent and reason): counts add up,
 * the sample is the newest.
 */
export const upsertUnmappedSql = (source: Prisma.Sql) => Prisma.sql`
  INSERT INTO otlp_unmapped_traces AS m (agent_id, reason, traces, spans, sample_span_name, sample_attribute_keys)
  ${source}
  ON CONFLICT (agent_id, reason) DO UPDATE SET traces = m.traces + EXCLUDED.traces, spans = m.spans + EXCLUDED.spans,
    sample_span_name = EXCLUDED.sample_span_name, sample_attribute_keys = EXCLUDED.sample_attribute_keys, last_seen_at = now()`;

/** Counts traces that made no runs, one statement for all of them. */
export async function recordUnmapped(db: Db, traces: readonly UnmappedTrace[]): Promise<void> {
  if (traces.length === 0) return;
  const rows = new Map<string, { agent_id: string | null; reason: string; traces: number; spans: number; sample_span_name: string; sample_attribute_keys: string[] }>();
  for (const t of traces) {
    const key = `${t.agentId ?? ""}\n${t.reason}`;
    const row = rows.get(key) ?? { agent_id: t.agentId, reason: t.reason, traces: 0, spans: 0, sample_span_name: "", sample_attribute_keys: [] };
    row.traces++;
    row.spans += t.spans;
    row.sample_span_name = t.sample.name;
    row.sample_attribute_keys = t.sample.keys;
    rows.set(key, row);
  }
  // In key order, so that concurrent claims lock rows in one order.
  const sorted = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  await queryRows(
    db,
    upsertUnmappedSql(Prisma.sql`
      SELECT agent_id, reason, traces, spans, sample_span_name, sample_attribute_keys
      FROM jsonb_to_recordset(${JSON.stringify(sorted)}::jsonb) AS x(agent_id text, reason text, traces bigint, spans bigint, sample_span_name text, sample_attribute_keys text[])`),
  );
}

export type UnmappedRow = {
  agentId: string | null;
  /** Whether the agent is declared (an undeclared one has no page). */
  agentKnown: boolean;
  reason: string;
  traces: number;
  spans: number;
  sampleSpanName: string;
  sampleAttributeKeys: string[];
  firstSeenAt: Date;
  lastSeenAt: Date;
};

export type UnmappedFilter = {
  /** One agent's rows; else every agent's and the agent-less ones. */
  agent?: string;
  /** Only the rows of no declared agent (none named, or not declared). */
  agentless?: boolean;
  /** Only the rows that received a trace within this many days. */
  recentDays?: number;
};

/** The `WHERE` of `FROM otlp_unmapped_traces u`: never an agent being deleted. */
export function unmappedWhere(opts: UnmappedFilter): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM agents g WHERE g.id = u.agent_id AND g.deleting_at IS NOT NULL)
    ${opts.agent !== undefined ? Prisma.sql`AND u.agent_id = ${opts.agent}` : Prisma.empty}
    ${opts.agentless ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM agents g WHERE g.id = u.agent_id)` : Prisma.empty}
    ${opts.recentDays !== undefined ? Prisma.sql`AND u.last_seen_at > now() - make_interval(days => ${opts.recentDays}::int)` : Prisma.empty}`;
}

/** The rows, newest trace first. */
export async function listUnmapped(db: Db, opts: UnmappedFilter & { limit: number }): Promise<UnmappedRow[]> {
  return db.$queryRaw<UnmappedRow[]>`
    SELECT u.agent_id AS "agentId", EXISTS (SELECT 1 FROM agents g WHERE g.id = u.agent_id) AS "agentKnown", u.reason,
      u.traces::float8 AS traces, u.spans::float8 AS spans, u.sample_span_name AS "sampleSpanName",
      u.sample_attribute_keys AS "sampleAttributeKeys", u.first_seen_at AS "firstSeenAt", u.last_seen_at AS "lastSeenAt"
    FROM otlp_unmapped_traces u WHERE ${unmappedWhere(opts)}
    ORDER BY u.last_seen_at DESC, u.id LIMIT ${opts.limit}`;
}

/** Deletes the rows that received no trace for UNMAPPED_KEEP_DAYS; returns how many. */
export async function pruneUnmapped(db: Db): Promise<number> {
  return db.$executeRaw`DELETE FROM otlp_unmapped_traces WHERE last_seen_at < now() - make_interval(days => ${UNMAPPED_KEEP_DAYS}::int)`;
}
