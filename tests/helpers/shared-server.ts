// The integration suite's global setup: one console server for the whole run, on the database
// kind the run tests (PROCTOR_TEST_DB). Files that ask for the plain server share it, each on a
// database reset to what start-up wrote (see tests/helpers/server.ts for who keeps their own):
// a start costs 10 to 20 s on this machine, a reset well under one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { takeSnapshot } from "./database-reset";
import { launchTestServer, SHARED_ENV, SHARED_SERVER_VAR, testDatabase, type SharedServer } from "./server";

export default async function setup() {
  const logDir = mkdtempSync(path.join(tmpdir(), "proctor-shared-server-"));
  const logFile = path.join(logDir, "output.log");
  writeFileSync(logFile, "");
  const server = await launchTestServer({ env: SHARED_ENV, logFile });
  const shared: SharedServer = {
    baseUrl: server.baseUrl,
    databaseUrl: server.databaseUrl,
    kind: server.kind,
    pid: server.pid,
    logFile,
    snapshot: await takeSnapshot(server.databaseUrl),
  };
  // Test workers start after this and inherit the environment.
  process.env[SHARED_SERVER_VAR] = JSON.stringify(shared);
  return async () => {
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
  };
}
