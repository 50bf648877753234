// npm start's supervisor (scripts/supervisor.ts): a server process that dies is started again,
// with why it ended logged, and restarts are capped per minute. The child here is a stand-in
// process (a node one-liner), so the test needs no build.
import { afterEach, describe, expect, it } from "vitest";
import { supervise, type Supervisor } from "../../scripts/supervisor";

const running: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`never happened: ${what}`);
}

const alive = (pid: number | undefined) => {
  try {
    return pid !== undefined && process.kill(pid, 0);
  } catch {
    return false;
  }
};

describe("npm start's supervisor", () => {
  it("starts a server process that was killed again and logs the signal", async () => {
    const log: string[] = [];
    const s = supervise({ name: "test", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], perMinute: 5, backoffMs: 10, log: (l) => log.push(l) });
    running.push(s);
    await until(() => alive(s.child()?.pid), "the first process runs");
    const first = s.child()!.pid!;
    process.kill(first, "SIGKILL");
    await until(() => alive(s.child()?.pid) && s.child()!.pid !== first, "a second process runs");
    expect(log.some((l) => l.includes(`process ${first} died (signal SIGKILL)`))).toBe(true);
    expect(alive(first)).toBe(false);
  });

  it("logs the exit code and stops restarting a crashing process at the per-minute cap", async () => {
    const log: string[] = [];
    const s = supervise({
      name: "test", command: process.execPath, args: ["-e", "process.exit(3)"], perMinute: 2, backoffMs: 10,
      log: (l) => log.push(l),
    });
    running.push(s);
    await until(() => log.some((l) => l.includes("restart limit reached (2 per minute)")), "the cap is reached");
    expect(log.filter((l) => l.includes("died (exit code 3)"))).toHaveLength(3);
    // The first start and two restarts; the next waits for the minute to pass.
    expect(log.filter((l) => l.includes("restarting in"))).toHaveLength(2);
  });
});
