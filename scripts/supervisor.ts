// Keeps a server process running: `npm start` (./supervise.ts) runs the console (./start.ts) as
// a child and starts it again when it dies (a crash, the heap limit, a kill), logging how it
// ended. Restarts wait longer after each quick death (backoff) and at most `perMinute` happen in
// any minute; past that the next start waits for the minute to pass. SIGINT/SIGTERM are passed
// to the child and end the supervisor with it.
import { spawn, type ChildProcess } from "node:child_process";

export type SupervisorOptions = {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Restarts allowed in any 60 seconds. */
  perMinute: number;
  /** The first restart's delay, doubled after each death within a minute of the last start, up to 30 s. */
  backoffMs: number;
  log?: (line: string) => void;
};

export type Supervisor = { child: () => ChildProcess | null; stop: (signal?: NodeJS.Signals) => Promise<number> };

const MINUTE = 60_000;
const MAX_BACKOFF_MS = 30_000;

export function supervise(opts: SupervisorOptions): Supervisor {
  const log = opts.log ?? ((line: string) => console.error(line));
  const restarts: number[] = [];
  let current: ChildProcess | null = null;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = opts.backoffMs;
  let startedAt = 0;
  let exited: Promise<number> = Promise.resolve(0);

  const start = () => {
    timer = null;
    startedAt = Date.now();
    const child = spawn(opts.command, opts.args, { env: opts.env ?? process.env, stdio: "inherit" });
    current = child;
    exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        current = null;
        resolve(code ?? 1);
        if (stopping) return;
        const why = signal ? `signal ${signal}` : `exit code ${code}`;
        // A death soon after a start doubles the wait; a long run resets it.
        delay = Date.now() - startedAt < MINUTE ? Math.min(delay * 2, MAX_BACKOFF_MS) : opts.backoffMs;
        const now = Date.now();
        while (restarts.length && now - restarts[0] >= MINUTE) restarts.shift();
        let wait = delay / 2;
        if (restarts.length >= opts.perMinute) {
          wait = Math.max(wait, restarts[0] + MINUTE - now);
          log(`${opts.name}: process ${child.pid} died (${why}); restart limit reached (${opts.perMinute} per minute): next start in ${Math.ceil(wait / 1000)} s`);
        } else log(`${opts.name}: process ${child.pid} died (${why}); restarting in ${Math.ceil(wait)} ms`);
        restarts.push(now + wait);
        timer = setTimeout(start, wait);
      }),
    );
  };
  start();

  return {
    child: () => current,
    stop: async (signal: NodeJS.Signals = "SIGTERM") => {
      stopping = true;
      if (timer) clearTimeout(timer);
      current?.kill(signal);
      return exited;
    },
  };
}
