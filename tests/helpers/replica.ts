// A streaming replica (hot standby) of the PostgreSQL test cluster: pg_basebackup of the primary
// into a temporary directory, started on a free port with the server's own binaries. PostgreSQL
// refuses to run as root, so as root the copy belongs to and runs as the `postgres` user. The
// primary must let 127.0.0.1 connect for replication (.ci/run adds that line to pg_hba.conf).
// Lag is made by pausing the replica's replay: WAL keeps streaming in, nothing is applied.
import { execFileSync, spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, postgresBaseUrl, waitFor } from "./server";

export type Replica = {
  /** The same database on the replica as `primaryUrl` names on the primary. */
  url(primaryUrl: string): string;
  /** Stops applying WAL: the replica shows what it had replayed until resumed. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary wrote so far. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
};

/** Settings a hot standby must hold at least at the primary's values, or it does not start. */
const MATCH_PRIMARY = ["max_connections", "max_worker_processes", "max_wal_senders", "max_prepared_transactions", "max_locks_per_transaction"];

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The running server's binaries (Debian's layout, else pg_config's). */
function binDir(major: number): string {
  const debian = `/usr/lib/postgresql/${major}/bin`;
  if (existsSync(path.join(debian, "pg_basebackup"))) return debian;
  return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
}

/** As root, the commands run as `postgres` (the owner of the copy). */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export async function startReplica(): Promise<Replica> {
  const primary = postgresBaseUrl();
  const [{ server_version_num }] = await query<{ server_version_num: string }>(primary, "SHOW server_version_num");
  const bin = binDir(Math.floor(Number(server_version_num) / 10000));
  const settings = await query<{ name: string; setting: string }>(primary, `SELECT name, setting FROM pg_settings WHERE name IN (${MATCH_PRIMARY.map((n) => `'${n}'`).join(", ")})`);
  const user = runAs();
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-replica-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  mkdirSync(data, { mode: 0o700 });
  if (user) [dir, data].forEach((d) => chownSync(d, user.uid, user.gid));
  const port = await freePort();
  const run = (cmd: string, args: string[], opts: SpawnSyncOptions = {}) => {
    const r = spawnSync(path.join(bin, cmd), args, { encoding: "utf8", ...(user ?? {}), ...opts });
    if (r.status !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
      throw new Error(`${cmd} ${args.join(" ")} exited ${r.status ?? r.signal}: ${r.error?.message ?? ""}${r.stderr}${r.stdout}\n${serverLog}`);
    }
  };
  const stop = async () => {
    if (existsSync(path.join(data, "postmaster.pid"))) run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // -R: standby.signal and primary_conninfo; a fast checkpoint so the copy starts at once.
    run("pg_basebackup", ["--dbname", primary, "-D", data, "-X", "stream", "-R", "-c", "fast", "--no-sync"], { timeout: 120_000 });
    // The copy's own configuration (Debian keeps the primary's outside its data directory).
    const conf = [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "hot_standby = on",
      "shared_buffers = 16MB",
      "fsync = off",
      ...settings.map((s) => `${s.name} = ${s.setting}`),
    ];
    const files: [string, string][] = [
      ["postgresql.conf", conf.join("\n") + "\n"],
      ["pg_hba.conf", "local all all trust\nhost all all 127.0.0.1/32 trust\n"],
      ["pg_ident.conf", ""],
    ];
    for (const [name, text] of files) {
      writeFileSync(path.join(data, name), text, { mode: 0o600 });
      if (user) chownSync(path.join(data, name), user.uid, user.gid);
    }
    // The port on the command line wins over anything the copied postgresql.auto.conf says.
    run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "120", "-o", `-p ${port}`, "start"], { timeout: 150_000 });
  } catch (e) {
    await stop();
    throw e;
  }
  const url = (primaryUrl: string) => {
    const u = new URL(primaryUrl);
    u.hostname = "127.0.0.1";
    u.port = String(port);
    return u.toString();
  };
  const maintenance = new URL(primary);
  maintenance.pathname = "/postgres";
  const admin = url(maintenance.toString());
  return {
    url,
    pauseReplay: async () => void (await query(admin, "SELECT pg_wal_replay_pause()")),
    resumeReplay: async () => void (await query(admin, "SELECT pg_wal_replay_resume()")),
    async catchUp() {
      const [{ lsn }] = await query<{ lsn: string }>(primary, "SELECT pg_current_wal_lsn()::text AS lsn");
      await waitFor(
        async () => (await query<{ ok: boolean }>(admin, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok,
        60_000,
        () => `the replica did not replay the primary's ${lsn}\n${readFileSync(log, "utf8").slice(-2000)}`,
      );
    },
    stop,
  };
}
