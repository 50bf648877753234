// What a bound API key reaches (lib/auth/key-reach.ts), which scopes can share a key
// (lib/auth/api-keys.ts), and that every agent API operation naming an agent or a ledger scope
// declares it (lib/api/v1/contract.ts), so no route forgets the binding check.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { keyScopeProblem } from "@/lib/auth/api-keys";
import { reachesAgent, reachRefusal } from "@/lib/auth/key-reach";
import { v1, type Operation } from "@/lib/api/v1/contract";

const key = (binding?: Partial<NonNullable<Extract<Actor, { type: "api_key" }>["binding"]>>): Actor => ({
  type: "api_key",
  id: "k",
  label: "k",
  scopes: ["ingest"],
  ...(binding ? { binding: { tenant: null, agents: [], evaluatorId: null, ...binding } } : {}),
});
const user: Actor = { type: "user", id: "u", label: "u", role: "ADMIN" };

describe("key reach", () => {
  it("unbound keys and users reach every tenant and agent", () => {
    for (const actor of [user, key(), key({})]) {
      expect(reachRefusal(actor, { tenant: "t", agent: "a" })).toBeNull();
      expect(reachesAgent(actor, "any")).toBe(true);
    }
  });

  it("a bound key reaches only its tenant and agents", () => {
    const bound = key({ tenant: "acme", agents: ["a1", "a2"] });
    expect(reachRefusal(bound, { tenant: "acme", agent: "a2" })).toBeNull();
    expect(reachRefusal(bound, { tenant: "other", agent: "a1" })?.message).toBe("This API key is bound to another ledger tenant.");
    expect(reachRefusal(bound, { tenant: "acme", agent: "a3" })?.message).toBe("This API key is not bound to this agent.");
    expect(reachRefusal(bound, { agent: "A1" })?.kind).toBe("forbidden");
    expect(reachesAgent(bound, "a3")).toBe(false);
    // Tenant-only and agent-only bindings constrain only that part.
    expect(reachRefusal(key({ tenant: "acme" }), { tenant: "acme", agent: "zzz" })).toBeNull();
    expect(reachRefusal(key({ agents: ["a1"] }), { tenant: "whatever", agent: "a1" })).toBeNull();
  });

  it("an evaluation must name the key's evaluator; a key without one records none", () => {
    expect(reachRefusal(key({ evaluatorId: "harness" }), { evaluator: "harness" })).toBeNull();
    expect(reachRefusal(key({ evaluatorId: "harness" }), { evaluator: "other" })?.kind).toBe("forbidden");
    expect(reachRefusal(key(), { evaluator: "harness" })?.kind).toBe("forbidden");
  });

  it("one key never both proposes and evaluates; only evaluator keys carry an evaluator id, and always", () => {
    expect(keyScopeProblem(["ledger:propose", "ledger:evaluate"], "e")).toMatch(/cannot both propose and evaluate/);
    expect(keyScopeProblem(["ledger:evaluate"], null)).toMatch(/must be bound to an evaluator id/);
    expect(keyScopeProblem(["ingest", "ledger:propose"], "e")).toMatch(/Only a ledger:evaluate key/);
    expect(keyScopeProblem(["ledger:evaluate"], "e")).toBeNull();
    expect(keyScopeProblem(["ingest", "admin", "ledger:propose"], null)).toBeNull();
  });

  it("every operation naming an agent or a ledger scope declares what it reaches", () => {
    const ops = Object.entries(v1) as [string, Operation][];
    const naming = ops.filter(([, op]) => op.path.includes("{agent_id}") || op.tag === "ledger" || op.query?.shape.agent_id);
    expect(naming.length).toBeGreaterThan(15);
    for (const [id, op] of naming) expect(op.reach ?? op.reachFromBody, id).toBeTypeOf("function");
    // What only the body names is checked once it is parsed; the address before the body is read.
    expect(v1.getProcedure.reach).toBeTypeOf("function");
    expect((v1.recordEvaluation as Operation).reach).toBeUndefined();
    expect(v1.recordEvaluation.reachFromBody({ params: {}, query: {}, body: { scope: { tenant: "t", agent: "a", environment: "e" }, evaluator_id: "h" } })).toEqual({ tenant: "t", agent: "a", evaluator: "h" });
    expect(v1.proposeProcedure.access).toBe("ledger:propose");
    expect(v1.recordEvaluation.access).toBe("ledger:evaluate");
  });
});
