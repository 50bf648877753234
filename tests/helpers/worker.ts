// A background worker as its own OS process (scripts/worker.ts) on a test server's database,
// so SIGKILL really kills it mid-job.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { TestServer } from "./server";
import { TEST_FORGET_KEY } from "./forget-key";

const root = path.resolve(import.meta.dirname, "../..");

export type Worker = { child: ChildProcess; output: () => string; stop(): Promise<void>; kill(): Promise<void> };

export function startWorker(server: TestServer, env: Record<string, string> = {}): Worker {
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/worker.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: server.databaseUrl, PROCTOR_FORGET_KEY: TEST_FORGET_KEY, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
