// ad-hoc profiler (not committed)
import pg from "pg";
import { createPostgresDatabase } from "../tests/helpers/server.ts";
import { applyMigrations } from "../scripts/db/migrate.ts";
import { createPrismaClient } from "../lib/db/prisma.ts";
import { ingestWorkflows } from "../lib/learning/ingest.ts";
import { newCase, prng, TOOL_CALLS, TOOL_NAMES, type Step } from "../scripts/demo/payloads.ts";

function generateRuns(prefix: string, count: number, seed: number) {
  const r = prng(seed);
  const paths = Array.from({ length: 40 }, () => Array.from({ length: 5 }, () => r.pick(TOOL_NAMES)));
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const c = newCase(r);
    const tools = r.pick(paths);
    let t = now - r.int(0, 30 * 86_400) * 1000;
    const steps: Step[] = tools.map((tool) => {
      const call = TOOL_CALLS[tool](c, r);
      return { tool, arguments: call.arguments, result: call.result, timestamp: new Date((t += r.int(200, 3000))).toISOString() };
    });
    const user = r.chance(0.85) ? `acct-${r.int(1, 200)}` : undefined;
    return { workflow_id: `${prefix}-${i}`, ...(user ? { user_id: user } : {}), query: `Please ${tools[0]} for ${c.orderId} (${c.sku}, ${c.city})`, steps, answer: "Done.", created_at: new Date(t + 500).toISOString() };
  });
}
const dbx = await createPostgresDatabase();
await applyMigrations(dbx.url);
const db = createPrismaClient(dbx.url);
const sql = new pg.Client(dbx.url); await sql.connect();
await sql.query(`INSERT INTO agents (id, name, tools, learning, created_at, updated_at) VALUES ('bench','b','[]','{}',now(),now())`).catch(async (e) => { console.log(e.message); const cols = await sql.query(`select column_name, is_nullable, column_default from information_schema.columns where table_name='agents'`); console.log(cols.rows); process.exit(1); });
const runs = generateRuns("b", 10000, 1);
const bodies = [];
for (let i = 0; i < runs.length; i += 500) bodies.push(JSON.stringify(runs.slice(i, i + 500)));
// warm
await ingestWorkflows(db, "bench", JSON.parse(bodies[0]));
const t0 = performance.now();
for (const b of bodies.slice(1)) await ingestWorkflows(db, "bench", JSON.parse(b));
const s = (performance.now() - t0) / 1000;
console.log(`in-process: ${(9500 / s).toFixed(0)} runs/s`);
await db.$disconnect(); await sql.end(); await dbx.drop();
