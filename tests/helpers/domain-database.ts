// A fresh database for tests that call the domain in-process (no server): a new database on
// the PostgreSQL server, or an embedded PGlite, by PROCTOR_TEST_DB. Migrations are applied
// unless the test applies them itself.
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/scripts/db/migrate";
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
