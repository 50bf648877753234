// Writes the next migration by diffing the schema as of the last migration against the
// current prisma/schema.prisma. No database is touched.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { openSchemaEngine } from "../../lib/db/schema-engine.ts";
import { startEmbeddedDatabase } from "../../lib/db/embedded.ts";
import { listMigrations, migrationsDir, schemaPath } from "./migrate.ts";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(1);
}
const current = readFileSync(schemaPath, "utf8");
const snapshotPath = path.join(migrationsDir, "schema.snapshot.prisma");
const previous = existsSync(snapshotPath) ? readFileSync(snapshotPath, "utf8") : null;

// The engine insists on a connection even for a datamodel-to-datamodel diff: give it a
// throwaway in-memory database.
const scratch = await startEmbeddedDatabase();
const engine = await openSchemaEngine(scratch.url, current);
const result = await engine.diff({
  from: previous === null ? { tag: "empty" } : { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: previous }] },
  to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: current }] },
  script: true,
  exitCode: null,
  filters: { externalTables: [], externalEnums: [] },
});
await engine.close();
await scratch.close();
const sql = (result.stdout ?? "").trim();
if (!sql || /^-- This is an empty migration/.test(sql)) {
  console.log("schema unchanged: no migration written");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql + "\n");
writeFileSync(snapshotPath, current);
if (!existsSync(path.join(migrationsDir, "migration_lock.toml")) || listMigrations().length === 1) {
  writeFileSync(path.join(migrationsDir, "migration_lock.toml"), 'provider = "postgresql"\n');
}
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
