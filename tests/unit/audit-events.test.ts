// The audit event union: names follow `<target>.<past-tense verb>`, payloads are exact (no
// unknown field, no missing id, the right target kind), and the writer refuses anything else
// before touching the database.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { AUDIT_EVENT_TYPES, auditEventSchema, parseAuditEvent } from "@/lib/audit/events";
import { recordAudit, systemAuditContext } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/prisma";

const activated = {
  type: "skill.activated",
  target: { type: "skill", id: "sk_1" },
  data: { agent_id: "support", version: 2, injection_role: "developer", reason: "reviewed" },
} as const;

describe("audit events", () => {
  it("are named <target>.<verb> in snake_case, each once", () => {
    expect(new Set(AUDIT_EVENT_TYPES).size).toBe(AUDIT_EVENT_TYPES.length);
    for (const t of AUDIT_EVENT_TYPES) expect(t).toMatch(/^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/);
    expect(AUDIT_EVENT_TYPES).toContain("promotion_cycle.ran");
  });

  it("accept a payload of the declared shape", () => {
    expect(auditEventSchema.parse(activated)).toEqual(activated);
  });

  it("reject an unknown field, a missing id, a wrong target kind and an unknown type", () => {
    const bad = [
      { ...activated, data: { ...activated.data, goals: "private text" } },
      { ...activated, target: { type: "skill" } },
      { ...activated, data: { version: 2, injection_role: "developer", reason: null } },
      { ...activated, target: { type: "agent", id: "support" } },
      { ...activated, extra: true },
      { ...activated, type: "skill.activate" },
    ];
    for (const e of bad) expect(auditEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(false);
  });

  it("read a stored row back, or null when no current type describes it", () => {
    const row = { action: activated.type, targetType: "skill", targetId: "sk_1", details: activated.data };
    expect(parseAuditEvent(row)).toEqual(activated);
    expect(parseAuditEvent({ ...row, action: "skill.qualification_started" })).toBeNull();
    expect(parseAuditEvent({ ...row, details: { reason: "old shape" } })).toBeNull();
  });

  it("are validated by the writer before anything is written", async () => {
    // The transaction is never reached: validation comes first.
    const untouched = new Proxy({}, { get: () => { throw new Error("the database was touched"); } }) as Tx;
    const wrong = { ...activated, data: { ...activated.data, secret: "pk_x" } };
    await expect(recordAudit(untouched, systemAuditContext(), wrong as never)).rejects.toBeInstanceOf(ZodError);
  });
});
