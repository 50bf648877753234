// What a bound API key reaches (lib/auth/key-reach.ts), which scopes can share a key
// (lib/auth/api-keys.ts), and that every agent API operation naming an agent, a ledger scope or
// a record by its id declares it (lib/api/v1/contract.ts), where route() enforces it: a route
// added without a declaration, or a handler checking reach itself, fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { keyScopeProblem } from "@/lib/auth/api-keys";
import { bindsAgents, reachesAgent, reachRefusal } from "@/lib/auth/key-reach";
import { v1, type Operation } from "@/lib/api/v1/contract";
import type { RecordKind } from "@/lib/api/v1/reach";

/**
 * Every path parameter of the agent API ("<collection>/{<name>}"), by what covers it for a bound
 * key: the record whose agent must be reached (the operation declares reachByRecord), or the
 * address or body the operation's reach reads (its agent, the ledger scope, every agent).
 * A new path parameter fails the test below until it is entered here.
 */
const PATH_PARAMS: Record<string, { record: RecordKind } | "address"> = {
  "agents/{agent_id}": "address",
  "classes/{canonical_hash}": "address", // a class of the agent in the same path
  "accounts/{user_id}": "address", // forgetting reaches every agent; a persona names its agent in the query
  "procedures/{id}": "address", // within the ledger scope of the query or body
  "evaluations/{case_id}": "address",
  "skills/{skill_id}": { record: "skill" },
  "experiments/{experiment_id}": { record: "experiment" },
  "workflows/{id}": { record: "workflow" },
  "jobs/{job_id}": "address", // jobs belong to the instance: keys bound to agents are refused
  "webhooks/{id}": "address", // endpoints belong to the instance: keys bound to agents are refused
};

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
    for (const actor of [user, key(), key({}), key({ tenant: "acme" })]) {
      expect(reachRefusal(actor, { agent: "a", everyAgent: true })).toBeNull();
      expect(reachesAgent(actor, "any")).toBe(true);
      expect(bindsAgents(actor)).toBe(false);
    }
    for (const actor of [user, key(), key({})]) expect(reachRefusal(actor, { tenant: "t", agent: "a" })).toBeNull();
  });

  it("a key bound to agents may not call an operation that reaches every agent", () => {
    const bound = key({ agents: ["a1"] });
    expect(bindsAgents(bound)).toBe(true);
    expect(reachRefusal(bound, { everyAgent: true })?.message).toBe("This API key is bound to agents; this operation reaches every agent.");
    expect(reachRefusal(bound, {})).toBeNull();
    expect(v1.forgetAccount.reach()).toEqual({ everyAgent: true });
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

  it("every operation addressing a record by its id declares the record's reach, and only those", () => {
    const byRecord: string[] = [];
    for (const [id, op] of Object.entries(v1) as [string, Operation][]) {
      const params = [...op.path.matchAll(/([^/]+)\/(\{[^}]+\})/g)].map(([, collection, param]) => `${collection}/${param}`);
      const records = params.map((p) => {
        expect(PATH_PARAMS, `${id}: path parameter ${p} is not classified`).toHaveProperty([p]);
        return PATH_PARAMS[p];
      });
      const record = records.find((r) => r !== "address");
      if (record) {
        const param = params[records.indexOf(record)].replace(/^.*\{(.+)\}$/, "$1");
        expect(op.reachByRecord, id).toEqual({ [record.record]: param });
        byRecord.push(id);
      } else {
        expect(op.reachByRecord, id).toBeUndefined();
        if (params.length) expect(op.reach ?? op.reachFromBody, `${id} names ${params.join(", ")}`).toBeTypeOf("function");
      }
    }
    expect(byRecord.sort()).toEqual([
      "activateSkill", "cancelExperiment", "completeExperiment", "demoteSkill", "experimentContext", "getExperiment", "getExperimentReport",
      "getSkill", "getSkillReadiness", "getWorkflow", "listExperimentAssignments", "rejectSkill", "reportExperimentRun", "startSkillQualification",
    ]);
  });

  it("no agent API route checks reach itself: route() does, from the declaration", () => {
    const dir = path.resolve(import.meta.dirname, "../../app/api/v1");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "route.ts");
    expect(files.length).toBeGreaterThan(20);
    const byHand = files.filter((f) => /lib\/auth\/key-reach|lib\/api\/v1\/reach|\b(reachesAgent|reachRefusal|recordRefusal|bindsAgents)\b/.test(readFileSync(path.join(dir, f), "utf8")));
    expect(byHand).toEqual([]);
  });
});
