// A fresh database for tests that call the domain in-process (no server): a new database on
// the PostgreSQL server, or an embedded PGlite, by PROCTOR_TEST_DB. Migrations are applied
// unless the test applies them itself.
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { applyMigrations, migrationsDir } from "@/scripts/db/migrate";
import { createPostgresDatabase, testDatabase } from "./server";

export type DomainDatabase = { url: string; close(): Promise<void> };

export async function openDomainDatabase(opts: { migrate?: boolean } = {}): Promise<DomainDatabase> {
  let db: DomainDatabase;
  if (testDatabase() === "postgres") {
    const created = await createPostgresDatabase();
    db = { url: created.url, close: created.drop };
  } else {
    const embedded = await startEmbeddedDatabase();
    db = { url: embedded.url, close: embedded.close };
  }
  if (opts.migrate !== false) await applyMigrations(db.url);
  return db;
}

/** Applies the named migrations' SQL in order: for tests that stop before a migration, store old rows, then go on. */
export async function applyMigrationFiles(sql: pg.Pool, names: string[]): Promise<void> {
  for (const name of names) await sql.query(readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
}
