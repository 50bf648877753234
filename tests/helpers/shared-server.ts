// The integration suite's global setup: the console servers of SHARED_SERVERS
// (tests/helpers/server.ts), started once for the whole run on the database kind it tests
// (PROCTOR_TEST_DB). Files share them, each on a database reset to what start-up wrote: a
// start costs 10 to 20 s on this machine, a reset well under one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { takeSnapshot } from "./database-reset";
import { launchTestServer, SHARED_SERVERS, SHARED_SERVERS_VAR, type SharedServer, type TestServer } from "./server";

export default async function setup() {
  const logDir = mkdtempSync(path.join(tmpdir(), "proctor-shared-servers-"));
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>, index: number): Promise<SharedServer> => {
    const logFile = path.join(logDir, `server-${index}.log`);
    writeFileSync(logFile, "");
    const server = await launchTestServer({ env, logFile });
    servers.push(server);
    const { baseUrl, databaseUrl, kind, pid } = server;
    return { env, baseUrl, databaseUrl, kind, pid, logFile, snapshot: await takeSnapshot(databaseUrl) };
  };
  const teardown = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    const shared = await Promise.all(SHARED_SERVERS.map(start));
    // Test workers start after this and inherit the environment.
    process.env[SHARED_SERVERS_VAR] = JSON.stringify(shared);
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}
