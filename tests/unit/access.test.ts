// The access table: who may use which scope, and how read-only mode and the persona actions
// flag change that. Routes, server actions and pages all ask this one function.
import { describe, expect, it } from "vitest";
import { can, denial, keyScopeFor, refusal } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";

const admin: Actor = { type: "user", id: "u1", label: "a@x", role: "ADMIN" };
const viewer: Actor = { type: "user", id: "u2", label: "v@x", role: "VIEWER" };
const ingestKey: Actor = { type: "api_key", id: "k1", label: "ingest", scopes: ["ingest"] };
const adminKey: Actor = { type: "api_key", id: "k2", label: "admin", scopes: ["admin"] };
const env = (e: Record<string, string> = {}) => e as NodeJS.ProcessEnv;

describe("access table", () => {
  it("viewers read learning but never change it, nor see persona profiles or the audit log", () => {
    expect(can(viewer, "learning:read", env())).toBe(true);
    for (const scope of ["learning:write", "persona:read", "audit:read", "users:manage", "runs:write"] as const) expect(can(viewer, scope, env())).toBe(false);
  });

  it("an ingest key sends runs and reads; only an admin key makes learning decisions", () => {
    expect(can(ingestKey, "runs:write", env())).toBe(true);
    expect(can(ingestKey, "learning:write", env())).toBe(false);
    expect(can(adminKey, "learning:write", env())).toBe(true);
    expect(can(adminKey, "runs:write", env())).toBe(true);
    expect(can(adminKey, "users:manage", env())).toBe(false);
    expect(keyScopeFor("learning:write")).toBe("admin");
    expect(keyScopeFor("runs:write")).toBe("ingest");
    expect(refusal(ingestKey, "learning:write", "scope").message).toBe("This API key lacks the 'admin' scope.");
  });

  it("ledger proposals and evaluations need their own key scopes, which only read besides", () => {
    const proposer: Actor = { type: "api_key", id: "k3", label: "p", scopes: ["ledger:propose"] };
    const evaluator: Actor = { type: "api_key", id: "k4", label: "e", scopes: ["ledger:evaluate"] };
    for (const actor of [ingestKey, adminKey, admin]) {
      expect(can(actor, "ledger:propose", env())).toBe(false);
      expect(can(actor, "ledger:evaluate", env())).toBe(false);
    }
    expect(can(proposer, "ledger:propose", env())).toBe(true);
    expect(can(proposer, "ledger:evaluate", env())).toBe(false);
    expect(can(evaluator, "ledger:evaluate", env())).toBe(true);
    expect(can(evaluator, "ledger:propose", env())).toBe(false);
    for (const actor of [proposer, evaluator]) {
      expect(can(actor, "ledger:read", env())).toBe(true);
      expect(can(actor, "runs:write", env())).toBe(false);
    }
    expect(keyScopeFor("ledger:evaluate")).toBe("ledger:evaluate");
    expect(refusal(proposer, "ledger:evaluate", "scope").message).toBe("This API key lacks the 'ledger:evaluate' scope.");
    expect(denial(evaluator, "ledger:evaluate", env({ PROCTOR_READ_ONLY: "1" }))).toBe("read_only");
  });

  it("read-only mode refuses every write scope and no read", () => {
    const ro = env({ PROCTOR_READ_ONLY: "1" });
    expect(denial(admin, "learning:write", ro)).toBe("read_only");
    expect(denial(ingestKey, "runs:write", ro)).toBe("read_only");
    expect(denial(admin, "users:manage", ro)).toBe("read_only");
    expect(denial(admin, "audit:read", ro)).toBeNull();
    expect(denial(admin, "users:read", ro)).toBeNull();
    expect(denial(ingestKey, "context:read", ro)).toBeNull();
  });

  it("persona decisions need the actions flag, and with it stay allowed in read-only mode", () => {
    expect(denial(admin, "persona:decide", env())).toBe("persona_actions_off");
    expect(denial(admin, "persona:decide", env({ PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_READ_ONLY: "1" }))).toBeNull();
    expect(denial(viewer, "persona:decide", env({ PROCTOR_PERSONA_ACTIONS: "1" }))).toBe("scope");
  });

  it("nobody is allowed anything without an actor", () => {
    expect(can(null, "learning:read", env())).toBe(false);
  });
});
