// ad-hoc: server CPU per single-run request (not committed)
import { readFileSync } from "node:fs";
import { ADMIN_KEY, startTestServer } from "../tests/helpers/server.ts";
import { largestDescendant } from "../scripts/bench/proc.ts";
const server = await startTestServer({ kind: "postgres" });
const H = { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" };
await fetch(`${server.baseUrl}/api/v1/agents/a1`, { method: "PUT", headers: H, body: JSON.stringify({ name: "a", tools: [] }) });
const pid = largestDescendant(server.pid);
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const body = (i: number) => JSON.stringify({ workflow_id: `w${i}`, user_id: `u${i % 50}`, query: `refund order ${i} for me`, steps: [{ tool: "lookup_order", arguments: { id: i }, result: { ok: true, total: 12.5 } }, { tool: "issue_refund", arguments: { id: i }, result: { accepted: true } }], answer: "done" });
for (let i = 0; i < 50; i++) await fetch(`${server.baseUrl}/api/v1/agents/a1/workflows`, { method: "POST", headers: H, body: body(i) });
const N = Number(process.env.N ?? 400);
const c0 = cpu(); const t0 = performance.now(); const lat: number[] = [];
for (let i = 50; i < 50 + N; i++) { const s = performance.now(); const r = await fetch(`${server.baseUrl}/api/v1/agents/a1/workflows`, { method: "POST", headers: H, body: body(i) }); await r.text(); if (r.status !== 201) console.log(r.status); lat.push(performance.now() - s); }
const el = performance.now() - t0; const c1 = cpu();
lat.sort((a, b) => a - b);
console.log(`sequential: ${(N / el * 1000).toFixed(0)} req/s, p50 ${lat[N >> 1].toFixed(1)} ms, p99 ${lat[Math.floor(N * 0.99)].toFixed(1)} ms, server CPU ${((c1 - c0) / N).toFixed(2)} ms/req`);
// health endpoint as a floor
const h0 = cpu(); const ht = performance.now();
for (let i = 0; i < N; i++) await (await fetch(`${server.baseUrl}/api/health`)).text();
console.log(`health: ${((performance.now() - ht) / N).toFixed(2)} ms/req, server CPU ${((cpu() - h0) / N).toFixed(2)} ms/req`);
if (process.env.PROF) { process.kill(pid, "SIGUSR2"); await new Promise((r) => setTimeout(r, 3000)); }
await server.stop();
