// `npm run bench:flood`: an anonymous flood of 10 MB request bodies against the built console on
// PostgreSQL: 16 concurrent clients for 2 minutes (15 s with --quick), each sending
// whole 10 MB bodies, by turns with a Content-Length and chunked, to console pages, console JSON
// routes, server-action posts, the agent API without a key, and the sign-in form, some with a
// forged session cookie. The gate in front of Next (lib/api/gate.ts) must answer each before
// reading it. Prints the status histogram and the server's peak RSS; PASS only if the peak stays
// under 1 GiB and every request got an answer, 401 or 413.
// Without that gate a few dozen such requests add hundreds of MiB to the server's RSS; figures
// in docs/benchmarks.md#flood.
// Knobs (environment): BENCH_FLOOD_SECONDS (120; 15 with --quick), BENCH_CONCURRENCY (16).
import http from "node:http";
import { startTestServer } from "../../tests/helpers/server.ts";
import { ensureBuild, largestDescendant, memoryOf, mib, QUICK, sampleRss, sleep, Verdicts } from "./measure.ts";

const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? (QUICK ? 15 : 120));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BODY_BYTES = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, "x");

type Target = { method: string; path: string; headers: Record<string, string> };
const json = { "content-type": "application/json" };
const TARGETS: Target[] = [
  { method: "POST", path: "/agents", headers: { "content-type": "text/plain;charset=UTF-8", "next-action": "0".repeat(40) } },
  { method: "POST", path: "/persona-evolution/action", headers: json },
  { method: "POST", path: "/api/console/users", headers: json },
  { method: "PUT", path: "/settings/users", headers: { ...json, cookie: "next-auth.session-token=forged" } },
  { method: "POST", path: "/api/v1/agents/flood/workflows/batch", headers: json },
  { method: "POST", path: "/api/auth/callback/credentials", headers: { "content-type": "application/x-www-form-urlencoded" } },
];

/** Sends one whole 10 MB body (declared, or chunked) and resolves with the status, or the error when no answer came. */
function flood(agent: http.Agent, base: URL, target: Target, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const headers = chunked ? target.headers : { ...target.headers, "content-length": String(BODY_BYTES) };
    const req = http.request({ agent, host: base.hostname, port: base.port, method: target.method, path: target.path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
    });
    req.on("error", (e) => resolve(`no answer (${(e as NodeJS.ErrnoException).code ?? e.message})`));
    let sent = 0;
    const write = () => {
      while (sent < BODY_BYTES) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

ensureBuild();
console.log(`flood: ${CONCURRENCY} concurrent anonymous 10 MB bodies for ${SECONDS} s (PostgreSQL)`);
const server = await startTestServer({ kind: "postgres" });
let failed = false;
try {
  const pid = largestDescendant(server.pid);
  await sleep(2000);
  const idleKb = memoryOf(pid)?.rssKb ?? 0;
  const base = new URL(server.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const histogram = new Map<string, number>();
  const sampler = sampleRss(pid);
  const deadline = Date.now() + SECONDS * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = worker; Date.now() < deadline; i += CONCURRENCY) {
        const answer = await flood(agent, base, TARGETS[i % TARGETS.length], Math.floor(i / TARGETS.length) % 2 === 1);
        histogram.set(answer, (histogram.get(answer) ?? 0) + 1);
        sent++;
      }
    }),
  );
  const peakKb = sampler.stop();
  const hwmKb = memoryOf(pid)?.hwmKb ?? 0;
  agent.destroy();

  console.log(`requests: ${sent} in ${SECONDS} s (${((sent * BODY_BYTES) / 2 ** 30).toFixed(1)} GiB sent, ${(sent / SECONDS).toFixed(1)}/s)`);
  console.log("answers:");
  for (const [status, n] of [...histogram].sort()) console.log(`  ${status.padEnd(24)} ${n}`);
  console.log(`server RSS: idle ${mib(idleKb)}, peak while flooded ${mib(peakKb)}, high-water mark ${mib(hwmKb)} (ceiling 1024 MiB)`);
  const v = new Verdicts();
  v.peakRss(Math.max(peakKb, hwmKb));
  const other = [...histogram].filter(([s]) => s !== "401" && s !== "413");
  v.check("every request answered 401 or 413", other.length === 0 && sent > 0, other.length ? other.map(([s, n]) => `${n} × ${s}`).join(", ") : `${sent} of ${sent}`);
  failed = v.failed;
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
