// Trajectory classes as stored at write time (never a scan of the runs), annotated with the
// engine's verdict. Paged by an opaque keyset cursor: most executed first, then by hash.
import type { Db } from "../db/prisma";
import { problems } from "../api/problem";
import { resolveLearningConfig } from "./config";
import { annotateClasses, type ClassStatsRow } from "./class-gates";
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
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { learning: true } });
  if (!agent) throw problems.notFound(`Agent '${agentId}'`);
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await db.trajectoryClass.findMany({
    where: {
      agentId,
      ...(input.userId !== undefined ? { userScope: input.userId } : {}),
      ...(after
        ? {
            OR: [
              { executions: { lt: after.e } },
              { executions: after.e, canonicalHash: { gt: after.h } },
              { executions: after.e, canonicalHash: after.h, userScope: { gt: after.u } },
            ],
          }
        : {}),
    },
    orderBy: [{ executions: "desc" }, { canonicalHash: "asc" }, { userScope: "asc" }],
    take: input.limit + 1,
    select: {
      agentId: true, userScope: true, canonicalHash: true, tools: true, executions: true, successes: true,
      distinctQueries: true, firstSeen: true, lastSeen: true,
    },
  });
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
