// The integration suite's global setup: the console servers of SHARED_SERVERS
// (tests/helpers/server.ts), started once for the whole run on the database kind it tests
// (PROCTOR_TEST_DB). Files share them, each on a database reset to what start-up wrote: a
// start costs 10 to 20 s on this machine, a reset well under one. Test files run in workers, so
// they ask this process to restart a server over a loopback HTTP control port.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { takeSnapshot } from "./database-reset";
import { launchTestServer, SHARED_SERVERS, SHARED_SERVERS_VAR, type SharedServer, type TestServer } from "./server";

export default async function setup() {
  const logDir = mkdtempSync(path.join(tmpdir(), "proctor-shared-servers-"));
  const servers: TestServer[] = [];
  const control = createServer((req, res) => {
    const server = servers[Number(/^\/restart\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1)];
    if (req.method !== "POST" || !server) return res.writeHead(404).end();
    server.restart().then(
      () => res.writeHead(204).end(),
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  const start = async (env: Record<string, string>, index: number): Promise<SharedServer> => {
    const logFile = path.join(logDir, `server-${index}.log`);
    writeFileSync(logFile, "");
    const server = await launchTestServer({ env, logFile });
    servers[index] = server;
    const { baseUrl, databaseUrl, kind, pid } = server;
    const restartUrl = `${controlUrl}/restart/${index}`;
    return { env, baseUrl, databaseUrl, kind, pid, logFile, restartUrl, snapshot: await takeSnapshot(databaseUrl) };
  };
  const teardown = async () => {
    control.close();
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
