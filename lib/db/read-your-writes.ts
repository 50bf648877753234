// Read-your-writes over a lagging read replica (DATABASE_READ_URL). After a console change the
// session carries the primary's WAL position in a cookie; its pages read the primary until the
// replica has replayed that position, or until the mark expires, so a reviewer who activates a
// skill and reloads sees it active while other sessions keep reading the replica. The cookie is
// not signed: a forged one only sends its own session's pages to the primary for a while.
import "server-only";
import { cookies } from "next/headers";
import { secureCookies } from "../auth/cookies";
import type { Db } from "./prisma";

export const RECENT_WRITE_COOKIE = "proctor-recent-write";
/** How long a session reads the primary at most after a change, when the replica lags that far behind. */
export const READ_YOUR_WRITES_SECONDS = 60;

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;

export type WriteMark = { lsn: string; until: number };

export const formatWriteMark = (mark: WriteMark) => `${mark.lsn}~${mark.until}`;

/** The mark a cookie holds while it is still in force at `now` (ms), else null. */
export function parseWriteMark(value: string | undefined, now: number): WriteMark | null {
  const [lsn, until, ...rest] = (value ?? "").split("~");
  const ms = Number(until);
  if (rest.length || !LSN.test(lsn ?? "") || !Number.isSafeInteger(ms)) return null;
  // A mark further ahead than one bound was not made here.
  if (ms <= now || ms > now + READ_YOUR_WRITES_SECONDS * 1000) return null;
  return { lsn, until: ms };
}

/**
 * After a session's change committed: the position its pages wait for. Nothing without a
 * replica. The change stands whatever happens here, so a failure is logged, not reported.
 */
export async function rememberWrite(primary: Db): Promise<void> {
  if (!process.env.DATABASE_READ_URL) return;
  let lsn: string;
  try {
    [{ lsn }] = await primary.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`;
  } catch (e) {
    const err = e as { name?: string; code?: string };
    console.error(`read-your-writes: the primary's WAL position could not be read (${err?.name ?? "error"}${err?.code ? ` ${err.code}` : ""}); this session's pages may show the replica's older state`);
    return;
  }
  (await cookies()).set(RECENT_WRITE_COOKIE, formatWriteMark({ lsn, until: Date.now() + READ_YOUR_WRITES_SECONDS * 1000 }), {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
    path: "/",
    maxAge: READ_YOUR_WRITES_SECONDS,
  });
}

/** The replica, unless this session changed something it has not replayed yet (then the primary). */
export async function replicaOrPrimary(replica: Db, primary: Db): Promise<Db> {
  const mark = parseWriteMark((await cookies()).get(RECENT_WRITE_COOKIE)?.value, Date.now());
  if (!mark) return replica;
  // NULL (not a standby) counts as behind: the primary answers until the mark expires.
  const [{ replayed }] = await replica.$queryRaw<{ replayed: boolean | null }[]>`
    SELECT pg_last_wal_replay_lsn() >= ${mark.lsn}::pg_lsn AS replayed`;
  return replayed ? replica : primary;
}
