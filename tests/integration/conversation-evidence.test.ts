// Conversation evidence, from ingestion to persona reflection: a reflection reads every unread
// message oldest first in pages (so a goal stated long ago in a long thread is suggested) and
// moves the account's mark only past what it read; the mark is a sequence in commit order (a
// message numbered before a claim and committed after it is still read); ingestion checks the
// agent and inserts in one statement, and messages need an existing agent (foreign key).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuditContext } from "@/lib/audit/record";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isDomainError } from "@/lib/errors";
import { deleteAgent, ingestConversation } from "@/lib/learning/operations";
import { dismissPersonaProposal, reflectPersona } from "@/lib/persona/operations";
import { listMigrations } from "@/scripts/db/migrate";
import { testDatabase, waitFor } from "../helpers/server";
import { applyMigrationFiles, openDomainDatabase } from "../helpers/domain-database";

const by: AuditContext = { actor: { type: "user", id: "u-admin", label: "admin@test.local", role: "ADMIN" }, requestId: "req-evidence", clientHash: null };
const GOAL = "My goal is to get refunds for damaged items processed the same day.";
const SUGGESTED = "Get refunds for damaged items processed the same day";

let url: string;
let close: () => Promise<void>;
let db: Db;
let sql: pg.Pool;
beforeAll(async () => {
  const database = await openDomainDatabase();
  url = database.url;
  close = database.close;
  db = createPrismaClient(url, 6);
  sql = new pg.Pool({ connectionString: url, max: 3 });
  sql.on("error", () => {});
  await db.agent.create({ data: { id: "support", name: "Support bot" } });
});
afterAll(async () => {
  await db?.$disconnect();
  await sql?.end();
  await close?.();
});

const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, i)).toISOString();
const chatter = (i: number) => `Order ${1000 + i} arrived, thanks for checking.`;

/** One thread of user messages, sent in one request. */
const send = (userId: string, texts: string[], thread: string, ids = texts.map((_, i) => `${thread}-m${String(i).padStart(3, "0")}`)) =>
  ingestConversation(db, "support", { thread_id: thread, user_id: userId, messages: texts.map((text, i) => ({ message_id: ids[i], role: "user", text, timestamp: at(i) })) });

async function reflect(userId: string) {
  vi.stubEnv("PROCTOR_LLM_API_KEY", "");
  vi.stubEnv("PROCTOR_LLM_BASE_URL", "");
  return reflectPersona(db, { userId, trigger: "manual" }, by);
}

/** Sessions of the database waiting for a lock (PostgreSQL). */
const lockWaits = async () => Number((await sql.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n);

describe(`persona reflection reads every unread message (${testDatabase()})`, () => {
  it("suggests a goal stated in the oldest message of a 157-message thread and counts what it read", async () => {
    await send("acct-long", [GOAL, ...Array.from({ length: 156 }, (_, i) => chatter(i))], "t-long");
    const state = await reflect("acct-long");
    expect(state.pending?.changes.goals.new).toContain(SUGGESTED);
    expect(state.reviews.at(-1)).toMatchObject({ status: "proposed", evidence_count: 157 });
  });

  it("moves the mark only past what one reflection read; the rest is read by the next", async () => {
    const texts = Array.from({ length: 230 }, (_, i) => chatter(i));
    texts[215] = GOAL;
    await send("acct-backlog", texts, "t-backlog");
    const first = await reflect("acct-backlog");
    expect(first.pending).toBeNull();
    expect(first.reviews.at(-1)).toMatchObject({ status: "no_change", evidence_count: 200 });
    const second = await reflect("acct-backlog");
    expect(second.pending?.changes.goals.new).toContain(SUGGESTED);
    expect(second.reviews.at(-1)).toMatchObject({ status: "proposed", evidence_count: 30 });
    await dismissPersonaProposal(db, { userId: "acct-backlog", proposalId: second.pending!.id, revision: second.revision, reason: "test" }, by);
    expect((await reflect("acct-backlog")).notice).toBe("no_new_evidence");
  });

  it("reads a message numbered before the claim and committed after it", async () => {
    // Concurrent sessions on one database: the embedded PGlite runs one transaction at a time.
    if (testDatabase() !== "postgres") return;
    const user = "acct-late";
    // An uncommitted message (another account's) with the key of the first message the goal's
    // ingestion inserts makes that ingestion wait, its statement started, until this transaction ends.
    const blocker = await sql.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query(
        `INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp) VALUES ('blocker', 'support', 't-late', 'acct-other', 't-late-a', 'user', 'hello', now())`,
      );
      const late = send(user, ["Hello again", GOAL], "t-late", ["t-late-a", "t-late-b"]);
      await waitFor(async () => (await lockWaits()) >= 1, 30_000, () => "the goal's ingestion never waited");
      // Another thread's message commits meanwhile, received after the goal's statement started.
      await send(user, ["Where is order 77?"], "t-early", ["t-early-a"]);
      const claim = reflect(user);
      // The claim waits for the ingestion in flight (or, without the lock, finishes without it).
      let claimed = false;
      void claim.then(() => (claimed = true), () => (claimed = true));
      await waitFor(async () => claimed || (await lockWaits()) >= 2, 30_000);
      await blocker.query("ROLLBACK");
      await late;
      const first = await claim;
      const state = first.pending ? first : await reflect(user);
      expect(state.pending?.changes.goals.new).toContain(SUGGESTED);
    } finally {
      blocker.release();
    }
  });
});

describe(`conversation ingestion and the agent (${testDatabase()})`, () => {
  it("refuses messages for an unknown agent, and the key refuses orphans written directly", async () => {
    const refused = await ingestConversation(db, "nobody", { thread_id: "t", user_id: "u", messages: [{ role: "user", text: "hi", timestamp: at(0) }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDomainError(refused, "not_found")).toBe(true);
    await expect(
      sql.query(`INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp) VALUES ('orphan', 'nobody', 't', 'u', 'm', 'user', 'x', now())`),
    ).rejects.toMatchObject({ code: "23503" });
  });

  it("an ingestion racing the agent's deletion commits before the deletion's mark, or is refused", async () => {
    if (testDatabase() !== "postgres") return;
    await db.agent.create({ data: { id: "racing", name: "Racing bot" } });
    const blocker = await sql.connect();
    const order: string[] = [];
    try {
      await blocker.query("BEGIN");
      await blocker.query(
        `INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp) VALUES ('blocker-r', 'racing', 't', 'acct-other', 'm-1', 'user', 'x', now())`,
      );
      const ingest = ingestConversation(db, "racing", { thread_id: "t", user_id: "acct-r", messages: [{ message_id: "m-1", role: "user", text: "hi", timestamp: at(0) }] }).then(
        () => order.push("ingested"),
        (e: unknown) => order.push(isDomainError(e, "agent_deleting") ? "refused" : `failed: ${(e as Error).name}`),
      );
      await waitFor(async () => (await lockWaits()) >= 1, 30_000, () => "the ingestion never waited");
      const deletion = deleteAgent(db, { agentId: "racing", includeLedger: false, reason: null }, by).then(() => order.push("deletion started"));
      await waitFor(async () => order.includes("deletion started") || (await lockWaits()) >= 2, 30_000);
      await blocker.query("ROLLBACK");
      await Promise.all([ingest, deletion]);
    } finally {
      blocker.release();
    }
    expect(order).toEqual(["ingested", "deletion started"]);
  });

  it("the migration removes messages of agents that no longer exist, and keeps the others", async () => {
    const fresh = await openDomainDatabase({ migrate: false });
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1 });
    pool.on("error", () => {});
    try {
      const names = listMigrations();
      const mine = names.findIndex((n) => n.endsWith("_conversation_seq_agent_fk"));
      await applyMigrationFiles(pool, names.slice(0, mine));
      await pool.query(`INSERT INTO agents (id, name, updated_at) VALUES ('kept', 'Kept', now())`);
      await pool.query(`
        INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp, received_at) VALUES
          ('a', 'kept', 't', 'u', 'm1', 'user', 'x', now(), now() - interval '2 minutes'),
          ('b', 'gone', 't', 'u', 'm2', 'user', 'x', now(), now() - interval '1 minute'),
          ('c', 'kept', 't', 'u', 'm3', 'user', 'x', now(), now())`);
      await applyMigrationFiles(pool, names.slice(mine));
      const rows = (await pool.query(`SELECT id, seq::int AS seq FROM conversation_messages ORDER BY seq`)).rows;
      expect(rows).toEqual([{ id: "a", seq: 1 }, { id: "c", seq: 3 }]);
      const next = await pool.query(`INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp) VALUES ('d', 'kept', 't', 'u', 'm4', 'user', 'x', now()) RETURNING seq::int AS seq`);
      expect(next.rows[0].seq).toBe(4);
    } finally {
      await pool.end();
      await fresh.close();
    }
  });
});
