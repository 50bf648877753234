// The persona operations called directly (no HTTP) on a real database: the enum migration
// keeps rows written with the old text statuses, each operation writes its audit row with its
// change (or changes nothing), and refusals are lib/errors.ts classes with the reference's
// messages. The HTTP contract itself is covered by persona-actions.test.ts.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditContext } from "@/lib/audit/record";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isDomainError } from "@/lib/errors";
import { PERSONA_MESSAGES } from "@/lib/persona/errors";
import { approvePersonaProposal, dismissPersonaProposal, pausePersonaReflection, reflectPersona, undoPersonaChange, viewPersonaProfile } from "@/lib/persona/operations";
import { loadState } from "@/lib/persona/state";
import { listMigrations } from "@/scripts/db/migrate";
import { applyMigrationFiles, openDomainDatabase } from "../helpers/domain-database";

const ENUMS = "persona_enums";
const by: AuditContext = { actor: { type: "user", id: "u-admin", label: "admin@test.local", role: "ADMIN" }, requestId: "req-persona-ops", clientHash: null };

let sql: pg.Pool;
let db: Db;
let close: () => Promise<void>;


beforeAll(async () => {
  const opened = await openDomainDatabase({ migrate: false });
  const url = opened.url;
  close = opened.close;
  sql = new pg.Pool({ connectionString: url, max: 2 });
  sql.on("error", () => {}); // the database is dropped at the end, possibly under a closing connection
  db = createPrismaClient(url, 4);
});
afterAll(async () => {
  await db?.$disconnect();
  await sql?.end();
  await close?.();
});

async function messages(userId: string, texts: string[]) {
  await db.agent.upsert({ where: { id: "tutor" }, create: { id: "tutor", name: "Tutor bot" }, update: {} });
  for (const [i, text] of texts.entries()) {
    await db.conversationMessage.create({
      data: { agentId: "tutor", threadId: "t-1", userId, messageId: `${userId}-${Date.now()}-${i}`, role: "user", text, timestamp: new Date() },
    });
  }
}

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(isDomainError(e)).toBe(true);
  return e as Error & { kind: string };
}

describe("persona enum migration", () => {
  it("converts rows written with text statuses in place, and the contract still spells them in lower case", async () => {
    const names = listMigrations();
    const at = names.findIndex((n) => n.endsWith(`_${ENUMS}`));
    expect(at).toBeGreaterThan(0);
    await applyMigrationFiles(sql, names.slice(0, at));
    await sql.query(`
      INSERT INTO account_personas (user_id, agent_id, persona_id, name, role, goals, version, revision, review_state, updated_at)
        VALUES ('acct-old', 'tutor', 'prs_old', 'Tutor bot', 'Learning partner', 'Learn SQL', 2, 5, 'dismissed', now()),
               ('acct-fresh', 'tutor', 'prs_fresh', 'Tutor bot', 'Learning partner', '', 1, 0, DEFAULT, now());
      INSERT INTO persona_history (id, user_id, version, action, actor_id, reason, goals_before, goals_after)
        VALUES ('h1', 'acct-old', 2, 'applied', 'operator:a', 'r', '', 'Learn SQL');
      INSERT INTO persona_reviews (id, user_id, agent_id, status, trigger, actor_id, trace_thread_id, trace_root_id, evidence_thread_ids)
        VALUES ('r1', 'acct-old', 'tutor', 'approved', 'manual', 'operator:a', 'persona-review:r1', 'r1', '{}'),
               ('r2', 'acct-old', 'tutor', 'dismissed', 'daily', 'system:daily-review', 'persona-review:r2', 'r2', '{}');
      INSERT INTO persona_proposals (id, user_id, review_id, status, reason, goals_old, goals_new, base_version)
        VALUES ('p1', 'acct-old', 'r1', 'approved', 'r', '', 'Learn SQL', 1), ('p2', 'acct-old', 'r2', 'dismissed', 'r', 'Learn SQL', 'x', 2);`);
    await applyMigrationFiles(sql, names.slice(at));

    const stored = await sql.query(`SELECT p.status AS proposal, r.status AS review, r.trigger FROM persona_proposals p JOIN persona_reviews r ON r.id = p.review_id ORDER BY p.id`);
    expect(stored.rows).toEqual([
      { proposal: "APPROVED", review: "APPROVED", trigger: "MANUAL" },
      { proposal: "DISMISSED", review: "DISMISSED", trigger: "DAILY" },
    ]);
    const old = await loadState(db, "acct-old");
    expect(old).toMatchObject({ review_state: "dismissed", revision: 5, persona: { goals: "Learn SQL", version: 2 } });
    expect(old!.persona.evolution_history.map((h) => h.action)).toEqual(["applied"]);
    expect(old!.reviews.map((r) => [r.status, r.trigger])).toEqual([
      ["approved", "manual"],
      ["dismissed", "daily"],
    ]);
    expect((await loadState(db, "acct-fresh"))!.review_state).toBe("not_reviewed");
  });
});

describe("persona operations", () => {
  it("reflect, approve and undo each write their audit row with the change; a stale revision is a PersonaConflict", async () => {
    const user = "acct-ops";
    await messages(user, ["My goal is to read Rust error messages."]);
    const proposed = await reflectPersona(db, { userId: user, trigger: "manual" }, by);
    expect(proposed).toMatchObject({ review_state: "proposed", persona: { version: 1 } });
    const proposal = { userId: user, proposalId: proposed.pending!.id };

    const stale = await refusal(approvePersonaProposal(db, { ...proposal, revision: proposed.revision - 1 }, by));
    expect(stale).toMatchObject({ kind: "conflict", message: PERSONA_MESSAGES.conflict, name: "PersonaConflict" });

    const approved = await approvePersonaProposal(db, { ...proposal, revision: proposed.revision }, by);
    expect(approved).toMatchObject({ pending: null, review_state: "approved", persona: { version: 2 } });
    expect(approved.persona.evolution_history.at(-1)).toMatchObject({ action: "applied", actor_id: "operator:admin@test.local" });
    const undone = await undoPersonaChange(db, { userId: user, revision: approved.revision }, by);
    expect(undone.persona).toMatchObject({ version: 3, goals: "" });

    const audit = await sql.query(`SELECT action, details FROM audit_events WHERE request_id = $1 ORDER BY id`, [by.requestId]);
    // The refused approval's audit row was written in its transaction and rolled back with it.
    expect(audit.rows.map((r) => r.action)).toEqual(["persona_reflection.requested", "persona_proposal.approved", "persona_change.undone"]);
    expect(audit.rows[1].details).toMatchObject({ revision: proposed.revision, proposal_id: proposed.pending!.id });
  });

  it("changes nothing and says the audit log is unavailable when the audit row cannot be written", async () => {
    const user = "acct-audit-down";
    await messages(user, ["My goal is to survive outages."]);
    const s = await reflectPersona(db, { userId: user, trigger: "manual" }, by);
    await sql.query(`CREATE OR REPLACE FUNCTION ops_refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END; $$ LANGUAGE plpgsql`);
    await sql.query(`CREATE TRIGGER ops_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ops_refuse_audit()`);
    try {
      for (const op of [
        () => pausePersonaReflection(db, { userId: user, revision: s.revision, paused: true }, by),
        () => dismissPersonaProposal(db, { userId: user, revision: s.revision, proposalId: s.pending!.id }, by),
        () => viewPersonaProfile(db, { userId: user }, by),
      ]) {
        expect(await refusal(op())).toMatchObject({ kind: "unavailable", message: PERSONA_MESSAGES.auditUnavailable });
      }
    } finally {
      await sql.query(`DROP TRIGGER ops_refuse_audit ON audit_events`);
    }
    expect(await loadState(db, user)).toMatchObject({ revision: s.revision, paused: false, pending: { id: s.pending!.id } });
  });

  it("answers a missing account with PersonaNotFound, and a view of it with nothing", async () => {
    const missing = await refusal(reflectPersona(db, { userId: "acct-nobody", trigger: "manual" }, by));
    expect(missing).toMatchObject({ kind: "not_found", message: "A persona or conversation for this account was not found." });
    expect(await viewPersonaProfile(db, { userId: "acct-nobody" }, by)).toBeNull();
  });
});
