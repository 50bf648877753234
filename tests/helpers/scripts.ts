// Runs one of the npm scripts' TypeScript files (scripts/…) against a test server's database,
// as `npm run <script>` would with DATABASE_URL set.
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { TestServer } from "./server";

const root = path.resolve(import.meta.dirname, "../..");

export function runScript(server: TestServer, script: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), script, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: server.databaseUrl },
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
