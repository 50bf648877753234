// `npm run seed:demo`: loads the demo support agent (toolbox, ~2,300 runs across 25
// trajectory classes over 60 days, conversations for 3 accounts) through the same domain
// functions the HTTP API uses, then prints deep links into the console.
//
// Database: DATABASE_URL if set; else the running console's embedded database (its loopback
// URL is in <data dir>/embedded.url); else the embedded database in the data dir, opened here.
// Idempotent: run ids are stable and the time anchor is stored, so a re-run reports duplicates.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../lib/db/embedded.ts";
import { createPrismaClient, type Db } from "../lib/db/prisma.ts";
import { systemAuditContext } from "../lib/audit/record.ts";
import { declareAgent, ingestConversation, ingestWorkflows } from "../lib/learning/operations/index.ts";
import { agentPutBody, conversationBody } from "../lib/learning/capture/schemas.ts";
import { applyMigrations } from "./db/migrate.ts";
import { answers } from "./db/answers.ts";
import { DEMO_AGENT_ID, classCount, demoAgentBody, demoConversations, demoRuns } from "./demo/data.ts";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(root, process.env.PROCTOR_DATA_DIR ?? ".data");
// The running console writes where it answers (scripts/start.ts), whatever PORT it was given.
const runningConsole = path.join(dataDir, "console.url");
const consoleUrl = (
  process.env.NEXTAUTH_URL ??
  (existsSync(runningConsole) ? readFileSync(runningConsole, "utf8").trim() : `http://localhost:${process.env.PORT ?? 3000}`)
).replace(/\/$/, "");
const ANCHOR_KEY = "seed_demo.anchor";
const BATCH = 250;

const { url, embedded, where } = await openDatabase();
console.log(`seeding ${where}`);
const db = createPrismaClient(url, 4);
try {
  await seed(db);
} finally {
  await db.$disconnect();
  await embedded?.close();
}

async function openDatabase(): Promise<{ url: string; embedded: EmbeddedDatabase | null; where: string }> {
  if (process.env.DATABASE_URL) {
    await applyMigrations(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, embedded: null, where: "PostgreSQL from DATABASE_URL" };
  }
  const urlFile = path.join(dataDir, "embedded.url");
  if (existsSync(urlFile)) {
    const running = readFileSync(urlFile, "utf8").trim();
    if (await answers(running)) return { url: running, embedded: null, where: `the running console's embedded database (${running})` };
    console.log(`${path.relative(root, urlFile)} is stale (no console answers there); opening the data directory directly`);
  }
  mkdirSync(dataDir, { recursive: true });
  const opened = await startEmbeddedDatabase(path.join(dataDir, "pglite"));
  await applyMigrations(opened.url);
  return { url: opened.url, embedded: opened, where: `the embedded database in ${path.join(dataDir, "pglite")}` };
}

/** The newest instant of the demo: the first seeding's hour, kept so re-runs are identical. */
async function demoAnchor(database: Db): Promise<Date> {
  const now = new Date();
  now.setUTCMinutes(0, 0, 0);
  const row = await database.setting.upsert({ where: { key: ANCHOR_KEY }, create: { key: ANCHOR_KEY, value: now.toISOString() }, update: {} });
  return new Date(row.value);
}

async function seed(database: Db) {
  const anchor = await demoAnchor(database);
  await declareAgent(database, { agentId: DEMO_AGENT_ID, ...agentPutBody.parse(demoAgentBody()) }, systemAuditContext("seed-demo"));
  console.log(`agent ${DEMO_AGENT_ID}: ${demoAgentBody().tools.length} tools`);

  const runs = demoRuns(anchor);
  const tally = { created: 0, duplicate: 0, rejected: 0 };
  const started = Date.now();
  for (let i = 0; i < runs.length; i += BATCH) {
    const results = await ingestWorkflows(database, DEMO_AGENT_ID, runs.slice(i, i + BATCH));
    for (const r of results) {
      if (r.status === 201) tally.created++;
      else if (r.status === 200) tally.duplicate++;
      else {
        tally.rejected++;
        if (tally.rejected <= 3) console.error(`run ${runs[i + r.index].workflow_id} rejected (${r.status}): ${JSON.stringify(r.error)}`);
      }
    }
    if (process.stdout.isTTY) process.stdout.write(`\rruns: ${Math.min(i + BATCH, runs.length)}/${runs.length}`);
  }
  console.log(
    `${process.stdout.isTTY ? "\r" : ""}runs: ${runs.length} across ${classCount} trajectory classes, ${runs[0].created_at.slice(0, 10)} → ${runs.at(-1)!.created_at.slice(0, 10)}` +
      ` (${tally.created} new, ${tally.duplicate} already there, ${tally.rejected} rejected) in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );

  const conversations = demoConversations(runs);
  const messages = { stored: 0, duplicates: 0 };
  for (const c of conversations) {
    const r = await ingestConversation(database, DEMO_AGENT_ID, conversationBody.parse(c));
    messages.stored += r.stored;
    messages.duplicates += r.duplicates;
  }
  const accounts = [...new Set(conversations.map((c) => c.user_id))];
  console.log(`conversations: ${conversations.length} threads for ${accounts.join(", ")} (${messages.stored} new messages, ${messages.duplicates} already there)`);

  const agent = encodeURIComponent(DEMO_AGENT_ID);
  console.log("\nOpen the console (npm start) and follow:");
  console.log(`  agent overview      ${consoleUrl}/agents/${agent}`);
  console.log(`  runs and classes    ${consoleUrl}/workflows?agent=${agent}`);
  for (const user of accounts) {
    const thread = conversations.find((c) => c.user_id === user)!.thread_id;
    console.log(`  traces of ${user}    ${consoleUrl}/traces?agent_id=${agent}&user_id=${user}`);
    console.log(`    a conversation    ${consoleUrl}/traces?agent_id=${agent}&user_id=${user}&thread_id=${encodeURIComponent(thread)}`);
  }
  if (tally.rejected) process.exitCode = 1;
}
