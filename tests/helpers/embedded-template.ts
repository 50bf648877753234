// An empty, migrated embedded database, made once per set of migrations (and PGlite version)
// and copied into each PGlite test server's data dir: initdb in WASM plus the migrations cost
// about 5 s per server, a copy about 0.3 s. The server still runs its own start-up on it (its
// migration check, the first admin). health.test.ts starts from an empty dir instead, so the
// first-start path stays covered.
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedDatabase } from "../../lib/db/embedded";
import { applyMigrations } from "../../scripts/db/migrate";
import { migrationsDigest } from "./postgres-template";

const root = path.resolve(import.meta.dirname, "../..");

const templateKey = () => migrationsDigest(readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"));

async function templateDir(): Promise<string> {
  const dir = path.join(tmpdir(), `proctor-pglite-template-${templateKey()}`);
  if (existsSync(path.join(dir, "READY"))) return dir;
  // Built aside and renamed into place, so a reader never sees half a template.
  const building = mkdtempSync(`${dir}-building-`);
  const db = await startEmbeddedDatabase(path.join(building, "pglite"));
  try {
    await applyMigrations(db.url);
  } finally {
    await db.close();
  }
  writeFileSync(path.join(building, "READY"), "");
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another process finished first
  }
  return dir;
}

/** Puts a migrated, empty embedded database where the server looks for it (`<data dir>/pglite`). */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  cpSync(path.join(await templateDir(), "pglite"), path.join(dataDir, "pglite"), { recursive: true });
}
