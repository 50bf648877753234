// Trajectory classes as stored at write time (never a scan of the runs), annotated with the
// engine's verdict. Paged by an opaque keyset cursor: most executed first, then by hash.
// The page statement runs on the plain pg pool (a console polls this list): through Prisma the
// same page of 50 with its skills costs the client about 1.7× the CPU (`npm run bench:pg-path`,
// docs/benchmarks.md#pg-path). It is the page's only statement: a second round trip for the gate
// rows would triple the classes API's p95 under `npm run bench:learning` (1,000,000 runs, 10,000
// classes; docs/benchmarks.md#learning).
import { pgPool, type Db } from "../../db/prisma";
import { DEFAULT_LEARNING_CONFIG, resolveLearningConfig } from "../agents/config";
import { classEvaluationOf, classSkills, classStatsRowOf, GATE_THRESHOLDS, classVerdictOf, gateStatsSql, gateThresholdArgs, type ClassSkillRow, type ClassSqlRow, type GateRow } from "./class-gates";
import type { z } from "zod";
import type { classListResponse } from "../capture/schemas";
import { Validation } from "../../errors";
import { textProblem } from "../../db/storable-text";
import { agentNotFound } from "../errors";

type ClassList = z.infer<typeof classListResponse>;
type Cursor = { e: number; h: string; u: string };
const INT4_MAX = 2 ** 31 - 1;

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.e, c.h, c.u])).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const [e, h, u] = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    // `e` is compared with an int4 column and `h`, `u` with text: out of range or unstorable, the query would fail.
    const inRange = Number.isInteger(e) && e >= 0 && e <= INT4_MAX;
    if (inRange && typeof h === "string" && typeof u === "string" && !textProblem(h) && !textProblem(u)) return { e, h, u };
  } catch {
    // fall through
  }
  throw new Validation("The cursor is invalid.", [{ path: "/cursor", message: "not a cursor returned by this endpoint" }]);
}

/** One row per class of the page (or one with null class columns when the agent has none); no row for an unknown agent. */
type PageRow = { learning: unknown } & ({ [K in keyof ClassSqlRow]: ClassSqlRow[K] | null }) & {
  skills: (Omit<ClassSkillRow, "demoted_at"> & { demoted_at: string | null })[] | null;
} & { [K in keyof GateRow as `gate_${K}`]: GateRow[K] | null };


export async function listClasses(
  db: Db,
  agentId: string,
  input: { limit: number; cursor?: string; userId?: string },
  now: Date = new Date(),
): Promise<ClassList> {
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  // The agent, the page, the page's skills and gate rows in one statement (this list is the hot path of a
  // console that polls it), on plain pg, which costs the client a fraction of a model query.
  // The page walks the (agent_id, executions DESC, canonical_hash, user_scope) index: the
  // keyset's `executions <= e` is its start, the rest a filter on the rows from there.
  const params: unknown[] = [agentId, input.limit + 1, now.toISOString()];
  const thresholds = new Map(GATE_THRESHOLDS.map(([key, type]) => [key, `COALESCE((a.learning->>'${key}')::${type}, $${params.push(DEFAULT_LEARNING_CONFIG[key])}::${type})`]));
  const where = ["agent_id = a.id"];
  if (input.userId !== undefined) where.push(`user_scope = $${params.push(input.userId)}`);
  if (after) {
    const [e, h, u] = [params.push(after.e), params.push(after.h), params.push(after.u)].map((n) => `$${n}`);
    where.push(`executions <= ${e}::int AND (executions < ${e}::int OR canonical_hash > ${h} OR (canonical_hash = ${h} AND user_scope > ${u}))`);
  }
  // Each class's gates: class_gate_failures over its stored statistics, or for a class whose
  // latest retirement (demotion or deprecation) is `since`, over its runs after then.
  const { rows } = await pgPool(db).query<PageRow>(
    `SELECT a.learning, c.*, k.skills, g.executions AS gate_executions, g.successes AS gate_successes,
       g.distinct_queries AS gate_distinct_queries, g.distinct_users AS gate_distinct_users, g.first_seen AS gate_first_seen, g.last_seen AS gate_last_seen,
       class_gate_failures(COALESCE(k.covered, false), g.executions, g.successes, g.distinct_queries, g.distinct_users, g.last_seen,
         ${gateThresholdArgs((key) => thresholds.get(key)!)}, $3::timestamptz) AS gate_failures
     FROM agents a
     LEFT JOIN LATERAL (
       SELECT agent_id, user_scope, canonical_hash, tools, executions, successes, distinct_queries, distinct_users, first_seen, last_seen
       FROM trajectory_classes WHERE ${where.join(" AND ")}
       ORDER BY executions DESC, canonical_hash, user_scope LIMIT $2::int) c ON true
     LEFT JOIN LATERAL (
       SELECT json_agg(json_build_object('id', s.id, 'user_scope', s.user_scope, 'source_canonical_hash', s.source_canonical_hash,
                                         'status', s.status, 'version', s.version, 'demoted_at', s.demoted_at,
                                         'demotion_reason', s.demotion_reason)) AS skills,
         bool_or(s.status IN ('CANDIDATE', 'SHADOW', 'ACTIVE')) AS covered,
         max(s.demoted_at) FILTER (WHERE s.status IN ('DEMOTED', 'DEPRECATED', 'REJECTED')) AS since
       FROM skills s WHERE s.agent_id = a.id AND s.user_scope = c.user_scope AND s.source_canonical_hash = c.canonical_hash) k ON true
     LEFT JOIN LATERAL (${gateStatsSql("c", "k.since", "a.id")}) g ON true
     WHERE a.id = $1
     ORDER BY c.executions DESC, c.canonical_hash, c.user_scope`,
    params,
  );
  if (rows.length === 0) throw agentNotFound(agentId);
  const config = resolveLearningConfig(rows[0].learning);
  const found = rows.filter((r) => r.canonical_hash !== null);
  const page = found.slice(0, input.limit).map((r) =>
    classEvaluationOf(
      config,
      classStatsRowOf(r as ClassSqlRow),
      classSkills((r.skills ?? []).map((s) => ({ ...s, demoted_at: s.demoted_at === null ? null : new Date(s.demoted_at) }))),
      {
        executions: r.gate_executions!,
        successes: r.gate_successes!,
        distinct_queries: r.gate_distinct_queries!,
        distinct_users: r.gate_distinct_users!,
        first_seen: r.gate_first_seen,
        last_seen: r.gate_last_seen,
        failures: r.gate_failures!,
      },
      now,
    ),
  );
  const last = page[page.length - 1]?.row;
  return {
    classes: page.map((e) => {
      const c = e.row;
      return {
        canonical_hash: c.canonicalHash,
        user_id: c.userScope === "" ? null : c.userScope,
        tools: c.tools,
        executions: c.executions,
        successes: c.successes,
        success_rate: c.executions === 0 ? 0 : c.successes / c.executions,
        distinct_queries: c.distinctQueries,
        distinct_users: c.distinctUsers,
        first_seen: c.firstSeen.toISOString(),
        last_seen: c.lastSeen.toISOString(),
        ...classVerdictOf(e),
      };
    }),
    next_cursor: found.length > input.limit && last ? encodeCursor({ e: last.executions, h: last.canonicalHash, u: last.userScope }) : null,
  };
}
