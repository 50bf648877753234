// `npm start`: the console (./start.ts) in a child process that is started again when it dies
// (./supervisor.ts): a crash or an export that exhausts the heap no longer leaves the instance
// down. The node flags after the script's name (the heap limit) are the child's;
// PROCTOR_RESTARTS_PER_MINUTE (default 5) caps restarts.
import path from "node:path";
import { supervise } from "./supervisor.ts";

const root = path.resolve(import.meta.dirname, "..");
const perMinute = Number(process.env.PROCTOR_RESTARTS_PER_MINUTE ?? 5);
const server = supervise({
  name: "proctor",
  command: process.execPath,
  args: [...process.argv.slice(2), "--import", "tsx", path.join(root, "scripts/start.ts")],
  perMinute: Number.isInteger(perMinute) && perMinute > 0 ? perMinute : 5,
  backoffMs: 1000,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void server.stop(signal).then((code) => process.exit(code)));
