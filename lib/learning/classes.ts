// Trajectory classes as stored at write time (never a scan of the runs), annotated with the
// engine's verdict. Paged by an opaque keyset cursor: most executed first, then by hash.
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/prisma";
import { problems } from "../api/problem";
import { resolveLearningConfig } from "./config";
import { annotateClasses, classStatsRowOf, type ClassSqlRow, type ClassStatsRow } from "./class-gates";
import type { z } from "zod";
import type { classListResponse } from "../api/v1/schemas";

type ClassList = z.infer<typeof classListResponse>;
type Cursor = { e: number; h: string; u: string };

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.e, c.h, c.u])).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  try {
    const [e, h, u] = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (Number.isInteger(e) && typeof h === "string" && typeof u === "string") return { e, h, u };
  } catch {
    // fall through
  }
  throw problems.validation("The cursor is invalid.", [{ path: "/cursor", message: "not a cursor returned by this endpoint" }]);
}

export async function listClasses(
  db: Db,
  agentId: string,
  input: { limit: number; cursor?: string; userId?: string },
  now: Date = new Date(),
): Promise<ClassList> {
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  // The agent and the page in parallel (an unknown agent simply has no classes); the page in
  // plain SQL, which costs the client a fraction of a model query on this hot list.
  const scope = input.userId !== undefined ? Prisma.sql`AND user_scope = ${input.userId}` : Prisma.empty;
  const keyset = after
    ? Prisma.sql`AND (executions < ${after.e} OR (executions = ${after.e} AND (canonical_hash > ${after.h}
        OR (canonical_hash = ${after.h} AND user_scope > ${after.u}))))`
    : Prisma.empty;
  const [agent, found] = await Promise.all([
    db.agent.findUnique({ where: { id: agentId }, select: { learning: true } }),
    db.$queryRaw<ClassSqlRow[]>`
      SELECT agent_id, user_scope, canonical_hash, tools, executions, successes, distinct_queries, first_seen, last_seen
      FROM trajectory_classes
      WHERE agent_id = ${agentId} ${scope} ${keyset}
      ORDER BY executions DESC, canonical_hash, user_scope
      LIMIT ${input.limit + 1}::int`,
  ]);
  const rows = found.map(classStatsRowOf);
  if (!agent) throw problems.notFound(`Agent '${agentId}'`);
  const page: ClassStatsRow[] = rows.slice(0, input.limit);
  const verdicts = await annotateClasses(db, resolveLearningConfig(agent.learning), page, now);
  const last = page[page.length - 1];
  return {
    classes: page.map((c, i) => ({
      canonical_hash: c.canonicalHash,
      user_id: c.userScope === "" ? null : c.userScope,
      tools: c.tools,
      executions: c.executions,
      successes: c.successes,
      success_rate: c.executions === 0 ? 0 : c.successes / c.executions,
      distinct_queries: c.distinctQueries,
      first_seen: c.firstSeen.toISOString(),
      last_seen: c.lastSeen.toISOString(),
      ...verdicts[i],
    })),
    next_cursor: rows.length > input.limit && last ? encodeCursor({ e: last.executions, h: last.canonicalHash, u: last.userScope }) : null,
  };
}
