import pg from "pg";
import { createPostgresDatabase } from "../tests/helpers/server.ts";
import { applyMigrations } from "../scripts/db/migrate.ts";
import { createPrismaClient } from "../lib/db/prisma.ts";
import { ingestWorkflows } from "../lib/learning/ingest.ts";
import { INSERT_RUNS_SQL } from "../lib/learning/ingest/sql.ts";
import { newCase, prng, TOOL_CALLS, TOOL_NAMES, type Step } from "../scripts/demo/payloads.ts";
function generateRuns(prefix: string, count: number, seed: number) {
  const r = prng(seed);
  const paths = Array.from({ length: 40 }, () => Array.from({ length: 5 }, () => r.pick(TOOL_NAMES)));
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const c = newCase(r); const tools = r.pick(paths); let t = now - r.int(0, 30 * 86_400) * 1000;
    const steps: Step[] = tools.map((tool) => { const call = TOOL_CALLS[tool](c, r); return { tool, arguments: call.arguments, result: call.result, timestamp: new Date((t += r.int(200, 3000))).toISOString() }; });
    const user = r.chance(0.85) ? `acct-${r.int(1, 200)}` : undefined;
    return { workflow_id: `${prefix}-${i}`, ...(user ? { user_id: user } : {}), query: `Please ${tools[0]} for ${c.orderId} (${c.sku}, ${c.city})`, steps, answer: "Done.", created_at: new Date(t + 500).toISOString() };
  });
}
const dbx = await createPostgresDatabase();
await applyMigrations(dbx.url);
const db = createPrismaClient(dbx.url);
const sql = new pg.Client(dbx.url); await sql.connect();
await sql.query(`INSERT INTO agents (id, name, tools, learning, created_at, updated_at) VALUES ('bench','b','[]','{}',now(),now())`);
const runs = generateRuns("b", 5500, 1);
for (let i = 0; i < 5000; i += 500) await ingestWorkflows(db, "bench", runs.slice(i, i + 500));
let captured: unknown[] | null = null;
const orig = db.$queryRawUnsafe.bind(db);
(db as any).$queryRawUnsafe = (q: string, ...args: unknown[]) => { if (q === INSERT_RUNS_SQL) { captured = args; throw new Error("captured"); } return orig(q, ...args); };
await ingestWorkflows(db, "bench", runs.slice(5000)).catch(() => {});
await sql.query("BEGIN");
const plan = await sql.query("EXPLAIN (ANALYZE, BUFFERS, TIMING) " + INSERT_RUNS_SQL, captured!);
console.log(plan.rows.map((r: any) => r["QUERY PLAN"]).join("\n"));
await sql.query("ROLLBACK");
await sql.query("BEGIN");
const t = performance.now(); await sql.query(INSERT_RUNS_SQL, captured!); console.log("plain", (performance.now() - t).toFixed(1), "ms");
await sql.query("ROLLBACK");
await db.$disconnect(); await sql.end(); await dbx.drop();
