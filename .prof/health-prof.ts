import { readFileSync } from "node:fs";
import { startTestServer } from "../tests/helpers/server.ts";
import { largestDescendant } from "../scripts/bench/proc.ts";
const server = await startTestServer({ kind: "postgres" });
const pid = largestDescendant(server.pid);
const url = process.env.URL_PATH ?? "/api/health";
for (let i = 0; i < 200; i++) await (await fetch(server.baseUrl + url)).text();
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const c0 = cpu(); const N = 2000;
for (let i = 0; i < N; i++) await (await fetch(server.baseUrl + url)).text();
console.log(`${url}: server CPU ${((cpu() - c0) / N).toFixed(2)} ms/req`);
if (process.env.PROF) { process.kill(pid, "SIGUSR2"); await new Promise((r) => setTimeout(r, 3000)); }
await server.stop();
