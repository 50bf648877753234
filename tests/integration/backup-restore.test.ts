// Backups as the README describes them (issue 16): on PostgreSQL, pg_dump of the running
// console's database restored with pg_restore into a new database; embedded, the data directory
// copied while the console is stopped. Either way a console started on the copy is healthy and
// serves the data written before the backup.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, launchTestServer, startTestServer, testDatabase, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin, postRun, putAgent } from "../helpers/learning";

// Each branch starts a server of its own: the suite's per-test limit is for shared servers.
const LAUNCH_LIMIT_MS = 240_000;
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function writeData(server: TestServer) {
  await putAgent(server, "backed-up");
  return postRun(server, "backed-up", { userId: "acct-b", query: "Refund order B-1" });
}

async function expectData(server: TestServer, runId: string) {
  const health = await call(server.baseUrl, admin, "GET", "/api/health");
  expect(health.json).toEqual({ status: "ok", database: "ok" });
  expect((await call(server.baseUrl, admin, "GET", "/api/v1/agents/backed-up")).status).toBe(200);
  const run = await call(server.baseUrl, admin, "GET", `/api/v1/workflows/${runId}`);
  expect(run.status).toBe(200);
  expect(run.json.query).toBe("Refund order B-1");
}

describe(`backup and restore (${testDatabase()})`, () => {
  it("a console started on the restored copy is healthy and serves the data", async () => {
    if (testDatabase() === "postgres") {
      const source = await startTestServer();
      const run = await writeData(source);
      const file = path.join(tempDir("proctor-dump-"), "proctor.dump");
      execFileSync("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, source.databaseUrl]);
      await source.stop();
      const restored = await createPostgresDatabase();
      try {
        execFileSync("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${restored.url}`, file]);
        const server = await launchTestServer({ databaseUrl: restored.url, dedicated: true });
        try {
          await expectData(server, run.id);
        } finally {
          await server.stop();
        }
      } finally {
        await restored.drop();
      }
    } else {
      const original = tempDir("proctor-backup-src-");
      const source = await launchTestServer({ dataDir: original, dedicated: true });
      const run = await writeData(source);
      await source.stop();
      const copy = tempDir("proctor-backup-copy-");
      cpSync(original, copy, { recursive: true });
      // The copy already holds its database: no template is seeded into it.
      const server = await launchTestServer({ dataDir: copy, emptyDataDir: true, dedicated: true });
      try {
        await expectData(server, run.id);
      } finally {
        await server.stop();
      }
    }
  }, LAUNCH_LIMIT_MS);
});
