// The integration suite's global setup: a loopback control port through which test files (run
// in workers) get the console servers of SHARED_SERVERS (tests/helpers/server.ts), each started
// on first request and kept for the run, on the database kind it tests (PROCTOR_TEST_DB), and
// restart them. Files share them, each on a database reset to what start-up wrote: a start
// costs 10 to 20 s on this machine, a reset well under one. Each test worker (its pool id) has
// its own servers, since files run side by side.
//   POST /servers/<i>/<pool>          → the SharedServer (JSON), started if need be
//   POST /servers/<i>/<pool>/restart  → 204 once it answers again
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { takeSnapshot } from "./database-reset";
import { launchTestServer, SHARED_SERVERS, SHARED_SERVERS_VAR, type SharedServer, type TestServer } from "./server";

export default async function setup() {
  const logDir = mkdtempSync(path.join(tmpdir(), "proctor-shared-servers-"));
  const started = new Map<string, Promise<{ server: TestServer; shared: SharedServer }>>();

  const start = async (index: number, pool: string) => {
    const env = SHARED_SERVERS[index];
    const logFile = path.join(logDir, `server-${index}-${pool}.log`);
    writeFileSync(logFile, "");
    const server = await launchTestServer({ env, logFile });
    const { baseUrl, databaseUrl, kind, pid } = server;
    const snapshot = await takeSnapshot(databaseUrl);
    return { server, shared: { env, baseUrl, databaseUrl, kind, pid, logFile, snapshot } };
  };
  const serve = async (index: number, pool: string, restart: boolean): Promise<string> => {
    const key = `${index}/${pool}`;
    if (!started.has(key)) started.set(key, start(index, pool));
    const { server, shared } = await started.get(key)!;
    if (!restart) return JSON.stringify(shared);
    await server.restart();
    return "";
  };

  const control = createServer((req, res) => {
    const [, index, pool, restart] = /^\/servers\/(\d+)\/(\d+)(\/restart)?$/.exec(req.url ?? "") ?? [];
    if (req.method !== "POST" || !SHARED_SERVERS[Number(index)]) return res.writeHead(404).end();
    serve(Number(index), pool, Boolean(restart)).then(
      (body) => res.writeHead(body ? 200 : 204, { "content-type": "application/json" }).end(body || undefined),
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  // Test workers start after this and inherit the environment.
  process.env[SHARED_SERVERS_VAR] = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  return async () => {
    control.close();
    const servers = await Promise.allSettled(started.values());
    await Promise.all(servers.map((s) => (s.status === "fulfilled" ? s.value.server.stop() : null)));
    rmSync(logDir, { recursive: true, force: true });
  };
}
