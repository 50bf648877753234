// Locks and connections come from the database the caller passed, never from the process's
// environment: the promotion-cycle lock and the agent deletion's run on a client whose
// DATABASE_URL points nowhere, and (PostgreSQL) a lock another session holds on that database
// refuses the cycle. The daily persona review names what failed in its log line and lets a
// failure that is not the domain's fail the job.
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuditContext } from "@/lib/audit/record";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isDomainError } from "@/lib/errors";
import { runAgentDeletionJob } from "@/lib/learning/agents/deletion";
import { deleteAgent, runPromotionCycle } from "@/lib/learning/operations";
import { runDailyCheck } from "@/lib/persona/daily";
import { testDatabase } from "../helpers/server";
import { openDomainDatabase } from "../helpers/domain-database";

const by: AuditContext = { actor: { type: "user", id: "u-admin", label: "admin@test.local", role: "ADMIN" }, requestId: "req-injected", clientHash: null };
const NOWHERE = "postgresql://nobody@127.0.0.1:9/nowhere?sslmode=disable";

let url: string;
let close: () => Promise<void>;
let db: Db;
beforeAll(async () => {
  const database = await openDomainDatabase();
  url = database.url;
  close = database.close;
  db = createPrismaClient(url, 4);
});
afterAll(async () => {
  await db?.$disconnect();
  await close?.();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const cycleLockKey = (agentId: string) => createHash("sha256").update(`promotion-cycle:${agentId}`).digest().readInt32BE(0);

describe(`locks from the injected database (${testDatabase()})`, () => {
  it("runs a promotion cycle and an agent deletion with DATABASE_URL pointing elsewhere", async () => {
    vi.stubEnv("DATABASE_URL", NOWHERE);
    await db.agent.create({ data: { id: "injected-a", name: "Injected" } });
    const report = await runPromotionCycle(db, { agentId: "injected-a", trigger: "manual" }, by);
    expect(report).toMatchObject({ agent_id: "injected-a" });

    await deleteAgent(db, { agentId: "injected-a", includeLedger: false, reason: null }, by);
    const [job] = await db.job.findMany({ where: { kind: "agent_deletion", agentId: "injected-a" } });
    await runAgentDeletionJob(db, job.payload, "injected-a");
    expect(await db.agent.count({ where: { id: "injected-a" } })).toBe(0);
  });

  it("refuses a cycle while another session holds the agent's lock on that database", async () => {
    // PGlite is one session for every connection (advisory locks re-enter): another process's lock exists only on PostgreSQL.
    if (testDatabase() !== "postgres") return;
    vi.stubEnv("DATABASE_URL", NOWHERE);
    await db.agent.create({ data: { id: "injected-b", name: "Injected" } });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(${0x70726f63}, ${cycleLockKey("injected-b")})`);
      const refused = await runPromotionCycle(db, { agentId: "injected-b", trigger: "manual" }, by).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDomainError(refused, "conflict")).toBe(true);
    } finally {
      await other.end();
    }
    expect(await runPromotionCycle(db, { agentId: "injected-b", trigger: "manual" }, by)).toMatchObject({ agent_id: "injected-b" });
  });
});

describe(`persona daily review failures (${testDatabase()})`, () => {
  const GOAL = "My goal is to pass the secret exam";

  async function dueAccount(userId: string) {
    await db.agent.upsert({ where: { id: "tutor" }, create: { id: "tutor", name: "Tutor bot" }, update: {} });
    await db.conversationMessage.create({ data: { agentId: "tutor", threadId: "t-1", userId, messageId: `${userId}-1`, role: "user", text: GOAL, timestamp: new Date() } });
    await db.accountPersona.create({ data: { userId, agentId: "tutor", personaId: `prs-${userId}`, name: "Tutor bot", role: "Learning partner", dailyEnabled: true } });
  }
  const logged = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((c) => c.map(String).join(" "));

  it("a failure that is not the domain's fails the job, logged by name without private text", async () => {
    await dueAccount("daily-broken");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END; $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()`);
    let thrown: unknown = null;
    try {
      await runDailyCheck(db, "daily-broken");
    } catch (e) {
      thrown = e;
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_refuse_audit ON audit_events`);
    }
    expect((thrown as Error)?.name).toBe("PersonaAuditUnavailable");
    const lines = logged(errors);
    expect(lines).toContain("persona daily review failed: PersonaAuditUnavailable");
    for (const line of lines) {
      expect(line).not.toContain("daily-broken");
      expect(line).not.toContain("secret exam");
    }
  });

  it("a refusal of the domain ends the check as failed, logged by name, and queues the next one", async () => {
    await dueAccount("daily-busy");
    // A reflection started since the check looked (an operator's, still running).
    await db.accountPersona.update({ where: { userId: "daily-busy" }, data: { reviewingId: "running-review", reviewingSince: new Date() } });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await runDailyCheck(db, "daily-busy")).toBe("reviewed");
    expect(logged(errors)).toEqual(["persona daily review refused: PersonaConflict (conflict)"]);
    expect(await db.accountPersona.findUnique({ where: { userId: "daily-busy" } })).toMatchObject({ lastDailyOutcome: "failed" });
    expect(await db.job.count({ where: { kind: "persona_daily_review", status: "PENDING", payload: { path: ["user_id"], equals: "daily-busy" } } })).toBe(1);
  });
});
