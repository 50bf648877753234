// What forgetting an account and run retention remove from a stored run, in one place: the
// private fields (query, steps with their arguments and results, answer, errors, the query's
// embedding). What stays is what learning counted: identity, user scope, outcome, times,
// trajectory signature and hash, step count, shadow records. The normalized query becomes a
// digest, so the recounts that read it (gates after a retirement, the hash backfill's rebuild)
// still count the same distinct queries without holding their text.
import { Prisma } from "../../db/generated/client";

/** Digest of a normalized query, "" kept as "" (no query is not a distinct query). */
export const queryDigestSql = (column: Prisma.Sql) =>
  Prisma.sql`CASE WHEN ${column} = '' OR ${column} LIKE 'removed:%' THEN ${column} ELSE 'removed:' || md5(${column}) END`;

/** The SET list that strips a run; `stamp` sets forgotten_at or expired_at. */
export const stripRunSql = (stamp: Prisma.Sql) => Prisma.sql`
  query = '', normalized_query = ${queryDigestSql(Prisma.sql`normalized_query`)}, steps = '[]'::jsonb,
  answer = NULL, execution_error = NULL, learning_error = NULL, embedding = '{}'::real[], ${stamp}`;

/** Prisma filter of runs whose payload is still stored (sample runs for distillation). */
export const payloadKept = { forgottenAt: null, expiredAt: null } as const;
