// `npm start` and `<data dir>/embedded.url` (issue 13, item 8): only the process that wrote the
// file removes it. A start on DATABASE_URL shares the data dir with an embedded instance that
// wrote it, and must leave it on SIGTERM; an embedded start writes it and removes it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launchTestServer, waitFor, type TestServer } from "../helpers/server";
import { openDomainDatabase } from "../helpers/domain-database";

// Each test starts and stops a server of its own: the suite's per-test limit is for shared servers.
const LAUNCH_LIMIT_MS = 240_000;
const dirs: string[] = [];
/** The server's own SIGTERM handler ran (not the SIGKILL fallback): its last output can trail the exit. */
const shutDownCleanly = (server: TestServer) => waitFor(async () => server.output().includes("shutting down (SIGTERM)"), 10_000, server.output);
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-start-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("embedded.url in the data dir", () => {
  it("is left alone on SIGTERM by a start on DATABASE_URL, which never wrote it", async () => {
    const dir = dataDir();
    const file = path.join(dir, "embedded.url");
    // What a running embedded instance sharing ./.data wrote.
    const other = "postgresql://postgres@127.0.0.1:5999/postgres?sslmode=disable\n";
    writeFileSync(file, other);
    const database = await openDomainDatabase({ migrate: false });
    try {
      const server = await launchTestServer({ dataDir: dir, databaseUrl: database.url, dedicated: true });
      expect(server.output()).toContain("database: PostgreSQL from DATABASE_URL");
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      await server.stop();
      await shutDownCleanly(server);
    } finally {
      await database.close();
    }
    expect(readFileSync(file, "utf8")).toBe(other);
  }, LAUNCH_LIMIT_MS);

  it("is written by an embedded start while it runs and removed by it on SIGTERM", async () => {
    const dir = dataDir();
    const file = path.join(dir, "embedded.url");
    const server = await launchTestServer({ kind: "pglite", dataDir: dir, dedicated: true });
    expect(readFileSync(file, "utf8").trim()).toMatch(/^postgres(ql)?:\/\/.*127\.0\.0\.1:\d+/);
    await server.stop();
    await shutDownCleanly(server);
    expect(existsSync(file)).toBe(false);
  }, LAUNCH_LIMIT_MS);
});
