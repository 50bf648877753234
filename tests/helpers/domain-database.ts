// A fresh database for tests that call the domain in-process (no server): a new database on
// the PostgreSQL server, or an embedded PGlite, by PROCTOR_TEST_DB. Migrated (a copy of the
// migrated template: ./postgres-template.ts, ./embedded-template.ts) unless the test applies
// the migrations itself.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrationsDir } from "@/scripts/db/migrate";
import { seedEmbeddedDatabase } from "./embedded-template";
import { createPostgresDatabase, testDatabase } from "./server";

export type DomainDatabase = { url: string; close(): Promise<void> };

export async function openDomainDatabase(opts: { migrate?: boolean } = {}): Promise<DomainDatabase> {
  const migrated = opts.migrate !== false;
  if (testDatabase() === "postgres") {
    const created = await createPostgresDatabase({ migrated });
    return { url: created.url, close: created.drop };
  }
  if (!migrated) {
    const embedded = await startEmbeddedDatabase();
    return { url: embedded.url, close: embedded.close };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "proctor-domain-"));
  await seedEmbeddedDatabase(dataDir);
  const embedded = await startEmbeddedDatabase(path.join(dataDir, "pglite"));
  return {
    url: embedded.url,
    async close() {
      await embedded.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Applies the named migrations' SQL in order: for tests that stop before a migration, store old rows, then go on. */
export async function applyMigrationFiles(sql: pg.Pool, names: string[]): Promise<void> {
  for (const name of names) await sql.query(readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
}
