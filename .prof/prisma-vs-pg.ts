import pg from "pg";
import { createPrismaClient } from "../lib/db/prisma.ts";
const url = "postgresql://postgres@127.0.0.1:5432/test";
const db = createPrismaClient(url, 8);
const pool = new pg.Pool({ connectionString: url, max: 8 });
const N = 4000;
async function run(name: string, q: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await q();
  const t = performance.now(); let next = 0; const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < N) await q(); }));
  const el = performance.now() - t; const c = process.cpuUsage(cpu0);
  console.log(`${name}: ${(N / el * 1000).toFixed(0)} q/s, client CPU ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/q`);
}
await run("prisma $queryRaw", () => db.$queryRaw`SELECT ${1}::int AS x`);
await run("pg pool.query", () => pool.query("SELECT $1::int AS x", [1]));
await run("prisma $transaction(2 queries)", () => db.$transaction(async (tx) => { await tx.$queryRaw`SELECT ${1}::int AS x`; await tx.$queryRaw`SELECT ${2}::int AS x`; }));
await run("pg tx (BEGIN, 2 queries, COMMIT)", async () => { const c = await pool.connect(); try { await c.query("BEGIN"); await c.query("SELECT $1::int", [1]); await c.query("SELECT $1::int", [2]); await c.query("COMMIT"); } finally { c.release(); } });
await db.$disconnect(); await pool.end();
