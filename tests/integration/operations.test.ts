// The learning and auth operations called directly (no HTTP), as the worker and scripts call
// them: who acts comes from the audit context (never from the input), the worker's cadence
// cycle and an admin's manual cycle are one operation audited with their actor, and a refused
// operation writes no audit row. The HTTP contracts are covered by the route tests.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemAuditContext, type AuditContext } from "@/lib/audit/record";
import { createApiKey, createUser, revokeApiKey, updateUser } from "@/lib/auth/operations";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isDomainError, type ErrorKind } from "@/lib/errors";
import { declareAgent, runPromotionCycle } from "@/lib/learning/operations";
import { agentPutBody } from "@/lib/learning/capture/schemas";
import { openDomainDatabase } from "../helpers/domain-database";
import { testDatabase } from "../helpers/server";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = await openDomainDatabase();
  const url = opened.url;
  close = opened.close;
  // The promotion cycle's per-agent lock takes its own connection from DATABASE_URL.
  vi.stubEnv("DATABASE_URL", url);
  db = createPrismaClient(url, 4);
});
afterAll(async () => {
  await db?.$disconnect();
  await close?.();
});

const asUser = (user: { id: string; email: string }): AuditContext => ({
  actor: { type: "user", id: user.id, label: user.email, role: "ADMIN" },
  requestId: `req-${user.email}`,
  clientHash: null,
});

async function refusal(p: Promise<unknown>): Promise<{ kind: ErrorKind; message: string }> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isDomainError(e)) throw new Error(`expected a domain error, got ${String(e)}`);
  return { kind: e.kind, message: e.message };
}

const auditRows = (action: string) => db.auditEvent.findMany({ where: { action }, orderBy: { id: "asc" } });

describe(`operations called directly (${testDatabase()})`, () => {
  it("the worker's cadence cycle and an admin's manual cycle are one operation, each audited with who ran it; a second at once is a conflict", async () => {
    const { user: admin } = await createUser(db, { email: "cycles@test.local", role: "ADMIN" }, systemAuditContext("test"));
    await declareAgent(db, { agentId: "cycles", ...agentPutBody.parse({ name: "Cycles" }) }, asUser(admin));

    const cadence = await runPromotionCycle(db, { agentId: "cycles", trigger: "cadence" }, systemAuditContext("job:promotion_cycle"));
    const manual = await runPromotionCycle(db, { agentId: "cycles", trigger: "manual" }, asUser(admin));
    expect([cadence.trigger, manual.trigger]).toEqual(["cadence", "manual"]);

    const rows = await auditRows("promotion_cycle.ran");
    expect(rows.map((r) => [r.actorType, r.actorLabel, r.requestId, (r.details as { trigger: string }).trigger, (r.details as { report_id: string }).report_id])).toEqual([
      ["system", "system", "job:promotion_cycle", "cadence", cadence.id],
      ["user", admin.email, `req-${admin.email}`, "manual", manual.id],
    ]);

    const both = await Promise.allSettled([
      runPromotionCycle(db, { agentId: "cycles", trigger: "manual" }, asUser(admin)),
      runPromotionCycle(db, { agentId: "cycles", trigger: "cadence" }, systemAuditContext("job:promotion_cycle")),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(isDomainError(refused.reason, "conflict")).toBe(true);
    expect(await auditRows("promotion_cycle.ran")).toHaveLength(3);
  });

  it("an admin's own demotion is refused by the acting user of the audit context and writes no audit row; another admin's is audited", async () => {
    const setup = systemAuditContext("test");
    const { user: ada } = await createUser(db, { email: "ada@test.local", role: "ADMIN" }, setup);
    const { user: bob } = await createUser(db, { email: "bob@test.local", role: "ADMIN" }, setup);
    const before = (await auditRows("user.updated")).length;

    expect(await refusal(updateUser(db, { userId: ada.id, role: "VIEWER", reason: "self" }, asUser(ada)))).toEqual({
      kind: "invalid_state",
      message: "You cannot demote or deactivate your own account.",
    });
    expect(await auditRows("user.updated")).toHaveLength(before);
    expect((await db.user.findUniqueOrThrow({ where: { id: ada.id } })).role).toBe("ADMIN");

    const demoted = await updateUser(db, { userId: ada.id, role: "VIEWER", reason: "rotation" }, asUser(bob));
    expect(demoted.role).toBe("VIEWER");
    const [row] = (await auditRows("user.updated")).slice(before);
    expect([row.actorId, row.targetId, row.details]).toEqual([
      bob.id,
      ada.id,
      { role_before: "ADMIN", role_after: "VIEWER", active_before: true, active_after: true, reason: "rotation" },
    ]);
  });

  it("an API key's creator is the acting user; of two revocations the second is refused and only one is audited", async () => {
    const { user: carol } = await createUser(db, { email: "carol@test.local", role: "ADMIN" }, systemAuditContext("test"));
    const { key, secret } = await createApiKey(db, { name: "evaluator", scopes: ["ingest"] }, asUser(carol));
    expect(key.created_by).toBe(carol.email);
    expect(secret.startsWith(key.prefix + "_")).toBe(true);

    const revoked = await revokeApiKey(db, { apiKeyId: key.id, reason: "leaked" }, asUser(carol));
    expect(revoked.revoked_at).not.toBeNull();
    expect(await refusal(revokeApiKey(db, { apiKeyId: key.id, reason: "again" }, asUser(carol)))).toEqual({
      kind: "invalid_state",
      message: "The API key is already revoked.",
    });
    const rows = (await auditRows("api_key.revoked")).filter((r) => r.targetId === key.id);
    expect(rows.map((r) => [r.actorId, r.details])).toEqual([[carol.id, { reason: "leaked" }]]);
  });
});
