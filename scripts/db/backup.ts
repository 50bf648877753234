// `npm run db:dump -- <file>` and `npm run db:restore -- <file>` (README "Backups"): one backup command
// for both databases, chosen as the console chooses (DATABASE_URL set: PostgreSQL; else the
// embedded PGlite in PROCTOR_DATA_DIR, default ./.data).
// - PostgreSQL: pg_dump --format=custom (a consistent snapshot; the console may keep running) and
//   pg_restore into an empty database. pg_dump refuses a server of a newer major version than
//   itself, so the versions are compared first and a mismatch is said in words (install the
//   server's client version); a newer client than the server is fine, as is pg_restore of the
//   same or a newer version than the pg_dump that wrote the file.
// - Embedded: PGlite's own dumpDataDir() (a gzipped tarball of its data directory) and, to
//   restore, a new data directory created from it with loadDataDir. A data directory belongs to
//   one process, so both refuse while a console answers on it, and a restore never overwrites an
//   existing database.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { answers } from "./answers.ts";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.resolve(root, process.env.PROCTOR_DATA_DIR ?? ".data");
const pgliteDir = path.join(dataDir, "pglite");

class Refused extends Error {}

const major = (versionNum: number) => Math.floor(versionNum / 10000);

/** The server's and pg_dump's major versions; refuses when pg_dump is older than the server. */
async function checkClientVersion(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const server = Number((await client.query<{ v: string }>("SHOW server_version_num")).rows[0].v);
  await client.end();
  const tool = execFileSync("pg_dump", ["--version"], { encoding: "utf8" }).trim();
  const clientMajor = Number(/(\d+)\./.exec(tool)?.[1]);
  if (clientMajor < major(server)) {
    throw new Refused(`${tool} cannot dump a PostgreSQL ${major(server)} server: install the PostgreSQL ${major(server)} client tools (or newer) and run again.`);
  }
}

/** Whether a console (its embedded database) is running on the data directory now. */
async function embeddedInUse(): Promise<boolean> {
  const urlFile = path.join(dataDir, "embedded.url");
  return existsSync(urlFile) && (await answers(readFileSync(urlFile, "utf8").trim()));
}

async function dump(file: string): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (url) {
    await checkClientVersion(url);
    execFileSync("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, url], { stdio: "inherit" });
    return `PostgreSQL database dumped to ${file} (pg_dump custom format)`;
  }
  if (!existsSync(pgliteDir)) throw new Refused(`No embedded database in ${pgliteDir}.`);
  if (await embeddedInUse()) throw new Refused("A console is running on the embedded database: stop it, then dump.");
  const db = await PGlite.create(pgliteDir);
  try {
    writeFileSync(file, Buffer.from(await (await db.dumpDataDir("gzip")).arrayBuffer()));
  } finally {
    await db.close();
  }
  return `embedded database in ${pgliteDir} dumped to ${file} (PGlite data directory, gzipped tar)`;
}

async function restore(file: string): Promise<string> {
  if (!existsSync(file)) throw new Refused(`No such file: ${file}`);
  const head = readFileSync(file).subarray(0, 5);
  const pgDump = head.toString("latin1") === "PGDMP";
  const tarball = head[0] === 0x1f && head[1] === 0x8b;
  const url = process.env.DATABASE_URL;
  if (url) {
    if (!pgDump) throw new Refused(`${file} is not a pg_dump custom-format file; an embedded dump restores with DATABASE_URL unset.`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()")).rows[0].n);
    await client.end();
    if (tables > 0) throw new Refused("DATABASE_URL names a database that already has tables: restore into a new, empty database.");
    execFileSync("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${url}`, file], { stdio: "inherit" });
    return `${file} restored into the PostgreSQL database; start the console with this DATABASE_URL`;
  }
  if (!tarball) throw new Refused(`${file} is not an embedded (PGlite) dump; a pg_dump file restores with DATABASE_URL set.`);
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) {
    throw new Refused(`${pgliteDir} already holds a database: move it away (or set PROCTOR_DATA_DIR to a new directory), then restore.`);
  }
  mkdirSync(pgliteDir, { recursive: true });
  const db = await PGlite.create(pgliteDir, { loadDataDir: new Blob([readFileSync(file)]) });
  await db.close();
  return `${file} restored into ${pgliteDir}; start the console on it (PROCTOR_DATA_DIR=${dataDir})`;
}

const [command, file] = process.argv.slice(2);
if ((command !== "dump" && command !== "restore") || !file) {
  console.error("usage: npm run db:dump -- <file> | npm run db:restore -- <file>");
  process.exit(2);
}
try {
  console.log(await (command === "dump" ? dump : restore)(path.resolve(file)));
} catch (e) {
  if (!(e instanceof Refused)) throw e;
  console.error(e.message);
  process.exit(1);
}
