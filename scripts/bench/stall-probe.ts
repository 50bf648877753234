// What a hostile request costs everyone else (bench:hostile): a probe that reads /api/health every
// 50 ms and the resident set of the server's process tree, both sampled on a thread of their own
// (the bench's own work, building and compressing payloads, must not delay a sample or pass for
// a stall). Per window: the longest stall (the longest a health request waited for its answer, or
// the longest gap between two answers beyond the 50 ms period while requests failed), how many
// requests failed, and the peak RSS (sampled tree sum, and the kernel's high-water mark of the
// server process since the window began, reset through /proc/<pid>/clear_refs).
import { writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { memoryOf, processTree } from "./measure.ts";

export const PROBE_PERIOD_MS = 50;

/** `stallCpuMs`: the server's main thread's CPU time during the longest stall (10-ms ticks): its own work, against the time it waited for a core or the database. */
export type Window = { stallMs: number; stallCpuMs: number; probes: number; failed: number; peakKb: number };

// Plain JavaScript: a worker started from a string runs outside tsx's loader.
const PROBE = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const { readFileSync } = require("node:fs");
const { url, period } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let pids = [];
let main = 0;
let w = null;
const rssKb = (pid) => {
  try { return Number(/^VmRSS:\\s+(\\d+) kB/m.exec(readFileSync("/proc/" + pid + "/status", "utf8"))[1]); } catch { return 0; }
};
// utime + stime of the main thread (its task id is the pid), in ms.
const cpuMs = () => {
  try { const f = readFileSync("/proc/" + main + "/task/" + main + "/stat", "utf8"); const x = f.slice(f.lastIndexOf(")") + 2).split(" "); return (Number(x[11]) + Number(x[12])) * 10; } catch { return 0; }
};
const health = () => new Promise((resolve) => {
  const req = http.get(url, { agent, timeout: 60000 }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode === 200)); });
  req.on("timeout", () => req.destroy(new Error("timeout")));
  req.on("error", () => resolve(false));
});
async function loop() {
  for (;;) {
    const start = performance.now();
    const cpuStart = cpuMs();
    const ok = await health();
    const end = performance.now();
    const cpuEnd = cpuMs();
    if (w) {
      w.probes++;
      if (ok) {
        if (end - start > w.stallMs) { w.stallMs = end - start; w.stallCpuMs = cpuEnd - cpuStart; }
        if (end - w.lastOk - period > w.stallMs) { w.stallMs = end - w.lastOk - period; w.stallCpuMs = cpuEnd - w.lastOkCpu; }
        w.lastOk = end;
        w.lastOkCpu = cpuEnd;
      } else w.failed++;
    }
    await new Promise((r) => setTimeout(r, Math.max(0, period - (performance.now() - start))));
  }
}
parentPort.on("message", (m) => {
  if (m.type === "start") { pids = m.pids; main = m.pids[0]; w = { stallMs: 0, stallCpuMs: 0, probes: 0, failed: 0, peakKb: 0, lastOk: performance.now(), lastOkCpu: 0 }; w.lastOkCpu = cpuMs(); }
  if (m.type === "stop") {
    const done = w; w = null;
    if (done && done.failed) done.stallMs = Math.max(done.stallMs, performance.now() - done.lastOk);
    parentPort.postMessage(done);
  }
});
// Sampled apart from the health requests: a request that hangs must not pause the samples.
setInterval(() => { if (w) w.peakKb = Math.max(w.peakKb, pids.reduce((n, pid) => n + rssKb(pid), 0)); }, period);
loop();
`;

export function stallProbe(baseUrl: string) {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${baseUrl}/api/health`, period: PROBE_PERIOD_MS } });
  let serverPid = 0;
  return {
    /** Starts a window over `pid`'s process tree. */
    start(pid: number) {
      serverPid = pid;
      resetHighWaterMark(pid);
      worker.postMessage({ type: "start", pids: processTree(pid) });
    },
    /** Ends the window: its figures. */
    stop(): Promise<Window> {
      return new Promise((resolve) => {
        worker.once("message", (w: Window) => resolve({ ...w, peakKb: Math.max(w.peakKb, memoryOf(serverPid)?.hwmKb ?? 0) }));
        worker.postMessage({ type: "stop" });
      });
    },
    close: () => worker.terminate(),
  };
}

/** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0; our own child, so permitted). */
function resetHighWaterMark(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // Without it the high-water mark is the process's lifetime peak: still an upper bound.
  }
}
