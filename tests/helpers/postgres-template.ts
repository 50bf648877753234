// A migrated, empty PostgreSQL database made once per set of migrations and cloned for each test
// server and in-process test (CREATE DATABASE … TEMPLATE: a file copy) instead of applying every
// migration to each new database. The embedded engine's counterpart is ./embedded-template.ts.
// A server still runs its own start-up on the clone (its migration check, the first admin);
// health.test.ts starts from an empty database, so the first-start path stays covered.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations, listMigrations, migrationsDir } from "../../scripts/db/migrate";

const PREFIX = "proctor_tmpl_";
/** Serializes template builds between test workers and concurrent runs on one server. */
const BUILD_LOCK = 0x746d706c; // "tmpl"

/** A digest of every migration's name and SQL (and `extra`, e.g. the embedded engine's version). */
export function migrationsDigest(extra = ""): string {
  const h = createHash("sha256").update(extra);
  for (const name of listMigrations()) h.update(name).update(readFileSync(path.join(migrationsDir, name, "migration.sql")));
  return h.digest("hex").slice(0, 16);
}

/** The template's name on the server `adminUrl` points at, built there first if need be. */
export async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = PREFIX + migrationsDigest();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(${BUILD_LOCK})`);
    if ((await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount) return name;
    // Templates of older migration sets go; this one is built under a temporary name, so a crash
    // mid-build never leaves a half-migrated template behind its real name.
    const stale = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${PREFIX}%`]);
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    const building = `${name}_building`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    await applyMigrations(url.toString());
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [building]);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(${BUILD_LOCK})`).catch(() => {});
    await admin.end().catch(() => {});
  }
}
