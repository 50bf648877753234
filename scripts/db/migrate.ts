// Applies prisma/migrations/*/migration.sql and records them in _prisma_migrations exactly
// as `prisma migrate deploy` does. Usable as a script and from the launcher.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openSchemaEngine } from "../../lib/db/schema-engine.ts";
import { keyPlainForgetMarks } from "../../lib/accounts/forget-marks.ts";

const root = path.resolve(import.meta.dirname, "../..");
export const migrationsDir = path.join(root, "prisma/migrations");
export const schemaPath = path.join(root, "prisma/schema.prisma");

export function listMigrations(): string[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(migrationsDir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

/**
 * Applies the pending migrations, or only those up to and including `through` (tests of a data
 * migration stop before it). `onNotice` hears the scripts' notices (what a data migration changed).
 * Then the keyed steps SQL cannot do, which need PROCTOR_FORGET_KEY when they find work.
 */
export async function applyMigrations(
  connectionString: string,
  opts: { through?: string; onNotice?: (message: string) => void } = {},
): Promise<string[]> {
  return withMigrationLock(connectionString, async (client) => {
    const applied = await apply(connectionString, opts);
    const moved = await keyPlainForgetMarks(client);
    if (moved) opts.onNotice?.(`${moved} forget marks keyed by the account's HMAC`);
    return applied;
  });
}

// The schema engine takes an advisory lock of its own but gives up after 10 s, so a second
// process starting while the first migrates (a fleet's web processes and workers) would fail.
// This lock waits instead; the waiter then finds nothing left to apply.
const MIGRATION_LOCK = 0x70726f64; // "prod", beside the promotion cycle's "proc"

async function withMigrationLock<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // A literal key: one simple-query message (the embedded server multiplexes connections).
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      return await fn(client);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function apply(connectionString: string, opts: { through?: string; onNotice?: (message: string) => void }): Promise<string[]> {
  const engine = await openSchemaEngine(connectionString, readFileSync(schemaPath, "utf8"), opts.onNotice);
  try {
    const lockPath = path.join(migrationsDir, "migration_lock.toml");
    const out = await engine.applyMigrations({
      migrationsList: {
        baseDir: migrationsDir,
        lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
        shadowDbInitScript: "",
        migrationDirectories: listMigrations().filter((name) => opts.through === undefined || name <= opts.through).map((name) => ({
          path: name,
          migrationFile: {
            path: "migration.sql",
            content: { tag: "ok", value: readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8") },
          },
        })),
      },
      filters: { externalTables: [], externalEnums: [] },
    });
    return out.appliedMigrationNames;
  } finally {
    await engine.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set. `npm start` migrates the embedded database by itself.");
    process.exit(1);
  }
  const applied = await applyMigrations(url, { onNotice: (m) => console.log(`migration notice: ${m}`) });
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
}
