// Backups as the README describes them ("Backups"), with `npm run db:dump` / `npm run db:restore`
// (scripts/db/backup.ts): on PostgreSQL, pg_dump of the running console's database restored with
// pg_restore into a new database; embedded, PGlite's dumpDataDir() tarball loaded into a new data
// directory. Either way a console started on the copy is healthy and serves the data written
// before the backup, and a restore refuses to overwrite a database.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { PrismaClient } from "@/lib/db/generated/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { systemAuditContext } from "@/lib/audit/record";
import { declareAgent, ingestWorkflows } from "@/lib/learning/operations";
import { agentPutBody } from "@/lib/learning/capture/schemas";
import { createPostgresDatabase, launchTestServer, startTestServer, testDatabase } from "../helpers/server";
import { seedEmbeddedDatabase } from "../helpers/embedded-template";
import { call } from "../helpers/http";
import { admin, postRun, putAgent } from "../helpers/learning";

// Each case starts a console of its own on the copy: the suite's per-test limit is for shared servers.
const LAUNCH_LIMIT_MS = 300_000;
const root = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The backup command as `npm run db:<command> -- <file>` runs it; DATABASE_URL only when given. */
function backup(command: "dump" | "restore", file: string, env: Record<string, string>) {
  const { DATABASE_URL: _, ...inherited } = process.env;
  return spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/db/backup.ts", command, file], {
    cwd: root,
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
}

async function expectData(baseUrl: string, runId: string) {
  const health = await call(baseUrl, admin, "GET", "/api/health");
  expect(health.json).toEqual({ status: "ok", database: "ok" });
  expect((await call(baseUrl, admin, "GET", "/api/v1/agents/backed-up")).status).toBe(200);
  const run = await call(baseUrl, admin, "GET", `/api/v1/workflows/${runId}`);
  expect(run.status).toBe(200);
  expect(run.json.query).toBe("Refund order B-1");
}

async function onRestored(options: Parameters<typeof launchTestServer>[0], runId: string) {
  const server = await launchTestServer({ ...options, dedicated: true });
  try {
    await expectData(server.baseUrl, runId);
  } finally {
    await server.stop();
  }
}

describe("backup and restore", () => {
  // PostgreSQL needs the server the run tests on; the embedded case needs nothing but itself.
  if (testDatabase() === "postgres") {
    it("PostgreSQL: db:dump of the running console, db:restore into a new database", async () => {
      const source = await startTestServer();
      await putAgent(source, "backed-up");
      const run = await postRun(source, "backed-up", { userId: "acct-b", query: "Refund order B-1" });
      const file = path.join(tempDir("proctor-dump-"), "proctor.dump");
      const dumped = backup("dump", file, { DATABASE_URL: source.databaseUrl });
      expect(dumped.status, dumped.stderr).toBe(0);
      const restored = await createPostgresDatabase();
      try {
        const r = backup("restore", file, { DATABASE_URL: restored.url });
        expect(r.status, r.stderr).toBe(0);
        // A second restore finds tables there and changes nothing.
        const again = backup("restore", file, { DATABASE_URL: restored.url });
        expect(again.status).toBe(1);
        expect(again.stderr).toContain("already has tables");
        await onRestored({ databaseUrl: restored.url }, run.id);
      } finally {
        await restored.drop();
      }
    }, LAUNCH_LIMIT_MS);
  }

  it("embedded: db:dump of a stopped data directory, db:restore into a new one", async () => {
    // The source written in this process through the operations the API calls, then closed.
    const original = tempDir("proctor-backup-src-");
    await seedEmbeddedDatabase(original);
    const embedded = await startEmbeddedDatabase(path.join(original, "pglite"));
    // The in-process WASM database is slow on a loaded machine: more than Prisma's default 5 s per transaction.
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: embedded.url, max: 2 }), transactionOptions: { timeout: 60_000 } });
    let runId: string;
    try {
      await declareAgent(db, { agentId: "backed-up", ...agentPutBody.parse({ name: "Backed up" }) }, systemAuditContext());
      const [result] = await ingestWorkflows(db, "backed-up", [
        { workflow_id: "b-1", user_id: "acct-b", query: "Refund order B-1", steps: [{ tool: "lookup_order", arguments: {}, result: {} }], outcome: "success" },
      ]);
      expect(result.status).toBe(201);
      runId = (await db.workflowRun.findFirstOrThrow({ where: { workflowId: "b-1" }, select: { id: true } })).id;
    } finally {
      await db.$disconnect();
      await embedded.close();
    }

    const file = path.join(tempDir("proctor-dump-"), "proctor-data.tgz");
    const dumped = backup("dump", file, { PROCTOR_DATA_DIR: original });
    expect(dumped.status, dumped.stderr).toBe(0);
    const copy = tempDir("proctor-backup-copy-");
    const restored = backup("restore", file, { PROCTOR_DATA_DIR: copy });
    expect(restored.status, restored.stderr).toBe(0);
    const again = backup("restore", file, { PROCTOR_DATA_DIR: copy });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already holds a database");
    // The copy already holds its database: no template is seeded into it.
    await onRestored({ dataDir: copy, emptyDataDir: true, kind: "pglite" }, runId);
  }, LAUNCH_LIMIT_MS);
});
