// The ledger core called directly (no HTTP) on a fresh database: its own validation, schema
// versioning, durability across restarts (a new client), concurrent identical deliveries, and
// skills proposed for qualification. The HTTP suite (ledger-api) leaves restarts to this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isLedgerError, type LedgerErrorKind } from "@/lib/ledger/errors";
import { applyEvaluation } from "@/lib/ledger/arithmetic";
import { proposeProcedure, recordEvaluation } from "@/lib/ledger/operations";
import { getEvaluation, getProcedure, selectProcedure } from "@/lib/ledger/read";
import type { LedgerPolicy, PairedEvaluation, ProcedureAggregates } from "@/lib/ledger/types";
import { DEPLOYMENT_SETTING, environmentFingerprint, proposeSkillQualification, skillQualification, type SkillQualificationInput } from "@/lib/ledger/skills";
import { testDatabase } from "../helpers/server";
import { openDomainDatabase } from "../helpers/domain-database";
import { fixtureEvaluation, fixtureProposal, SCOPE } from "../helpers/ledger";

let url: string;
let close: () => Promise<void>;
let db: Db;
const clients: Db[] = [];
const freshClient = () => {
  const c = createPrismaClient(url, 4);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  const database = await openDomainDatabase();
  url = database.url;
  close = database.close;
  db = freshClient();
});
afterAll(async () => {
  for (const c of clients) await c.$disconnect();
  await close?.();
});

async function failure(p: Promise<unknown>): Promise<LedgerErrorKind> {
  try {
    await p;
  } catch (e) {
    if (isLedgerError(e)) return e.variant;
    throw e;
  }
  throw new Error("expected the call to fail");
}

const count = async (table: string) => Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

describe(`ledger core (${testDatabase()})`, () => {
  it("records the ledger schema version on first use", async () => {
    await proposeProcedure(db, { scope: SCOPE, ...fixtureProposal() });
    expect(await db.ledgerSchemaVersion.findMany()).toEqual([{ id: 1, version: 1 }]);
  });

  it("validates its own inputs: NaN, infinities, strings for numbers, NUL and lone surrogates", async () => {
    const bad: Record<string, unknown>[] = [
      { candidate_utility: NaN },
      { baseline_utility: Infinity },
      { candidate_utility: -Infinity },
      { candidate_cost_units: "10" },
      { candidate_latency_ms: 2 ** 53 },
      { candidate_latency_ms: -0.5 },
      { case_id: "case\u0000zero" },
      { evidence_ref: "trace:\uDC00" },
    ];
    for (const over of bad) {
      expect(await failure(recordEvaluation(db, SCOPE, "procedure-1", { ...fixtureEvaluation(0), ...over } as never)), JSON.stringify(over)).toBe("ValidationError");
    }
    expect(await failure(recordEvaluation(db, { ...SCOPE, tenant: "t\uD800" }, "procedure-1", fixtureEvaluation(0) as never))).toBe("ValidationError");
    expect(await failure(proposeProcedure(db, { scope: SCOPE, ...fixtureProposal({ id: "nan" }, { confidence_delta: NaN }) } as never))).toBe("ValidationError");
    expect(await failure(proposeProcedure(db, { scope: SCOPE, ...fixtureProposal({ id: "inf" }, { min_improvement: Infinity }) } as never))).toBe("ValidationError");
    expect(await failure(proposeProcedure(db, { scope: SCOPE, ...fixtureProposal({ id: "nul", instructions: "a\u0000" }) } as never))).toBe("ValidationError");
    expect(await failure(getProcedure(db, SCOPE, "\uD800"))).toBe("ValidationError");
    expect(await failure(selectProcedure(db, SCOPE, { task: "t", baseline_revision: "b", evaluation_contract: "c", max_instruction_bytes: -1 }))).toBe("ValidationError");
    expect(await count("ledger_evaluations")).toBe(0);
    expect(await count("ledger_procedures")).toBe(1);
  });

  it("classifies concurrent identical deliveries as duplicates, whichever client wins", async () => {
    const scope = { ...SCOPE, environment: "concurrent" };
    await proposeProcedure(db, { scope, ...fixtureProposal() });
    const pool = Array.from({ length: 8 }, () => freshClient());
    for (let k = 0; k < 4; k++) {
      const results = await Promise.all(pool.map((c) => recordEvaluation(c, scope, "procedure-1", fixtureEvaluation(k) as never)));
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      expect(new Set(results.map((r) => r.receipt.recorded_at.getTime())).size).toBe(1);
    }
    expect((await getProcedure(db, scope, "procedure-1"))!.qualification_count).toBe(4);
  });

  it("a qualified procedure survives a restart: a new client reads the same record, decision and receipts", async () => {
    const scope = { ...SCOPE, environment: "restart" };
    await proposeProcedure(db, { scope, ...fixtureProposal() });
    for (let k = 0; k < 32; k++) await recordEvaluation(db, scope, "procedure-1", fixtureEvaluation(k) as never);
    const before = await getProcedure(db, scope, "procedure-1");
    expect(before).toMatchObject({ state: "active", qualification_count: 32 });
    expect(before!.decisions).toHaveLength(1);
    const restarted = freshClient();
    expect(await getProcedure(restarted, scope, "procedure-1")).toEqual(before);
    expect(await getEvaluation(restarted, scope, "procedure-1", "case-31")).toEqual(await getEvaluation(db, scope, "procedure-1", "case-31"));
  });

  it("refuses to start on an unknown schema version and leaves the data alone", async () => {
    await db.ledgerSchemaVersion.update({ where: { id: 1 }, data: { version: 999 } });
    const restarted = freshClient();
    expect(await failure(getProcedure(restarted, SCOPE, "procedure-1"))).toBe("Configuration");
    expect(await failure(proposeProcedure(restarted, { scope: SCOPE, ...fixtureProposal({ id: "other" }) }))).toBe("Configuration");
    expect(await db.ledgerSchemaVersion.findMany()).toEqual([{ id: 1, version: 999 }]);
    expect(await count("ledger_procedures")).toBe(3);
    // A refused start is checked again on the next call, not remembered.
    await db.ledgerSchemaVersion.update({ where: { id: 1 }, data: { version: 1 } });
    expect((await getProcedure(restarted, SCOPE, "procedure-1"))?.proposal.id).toBe("procedure-1");
  });

  it("refuses ledger rows that carry no schema version rather than adopting them", async () => {
    await db.ledgerSchemaVersion.deleteMany();
    const restarted = freshClient();
    expect(await failure(getProcedure(restarted, SCOPE, "procedure-1"))).toBe("Configuration");
    expect(await db.ledgerSchemaVersion.count()).toBe(0);
    await db.ledgerSchemaVersion.create({ data: { id: 1, version: 1 } });
  });
});

describe(`skills meet the ledger (${testDatabase()})`, () => {
  const tools = [
    { name: "lookup_order", description: "Find an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
    { name: "issue_refund", description: "Refund", parameters: { properties: {}, type: "object" } },
  ];
  const agent: SkillQualificationInput["agent"] = { id: "support-bot", tools, learning: { min_executions: 5 } };
  const skill: SkillQualificationInput["skill"] = {
    id: "sk_refund",
    agentId: "support-bot",
    status: "SHADOW",
    version: 2,
    content: "# Refund an order\n1. lookup_order\n2. issue_refund\n",
    sourceCanonicalHash: "c0ffee".repeat(10),
    sourceWorkflowIds: ["wf_1", "wf_2"],
  };

  it("proposes a shadow skill's SKILL.md against the no-skill baseline with default policy", async () => {
    const { record, created } = await proposeSkillQualification(db, { skill, agent, model: "gpt-4o-2024-08-06" });
    expect(created).toBe(true);
    const deployment = (await db.setting.findUniqueOrThrow({ where: { key: DEPLOYMENT_SETTING } })).value;
    expect(record.scope).toEqual({ tenant: deployment, agent: "support-bot", environment: environmentFingerprint(tools, "gpt-4o-2024-08-06") });
    expect(record.scope.environment).toMatch(/^toolbox-model-sha256:[0-9a-f]{64}$/);
    expect(record.proposal).toEqual({
      id: "skill:sk_refund:v2",
      task: skill.sourceCanonicalHash,
      baseline_revision: "no-skill",
      instructions: skill.content,
      source_refs: ["proctor:workflow:wf_1", "proctor:workflow:wf_2"],
      policy: {
        qualification_trials: 128,
        confidence_delta: 0.01,
        min_improvement: 0.05,
        min_candidate_utility: 0.7,
        max_cost_units: 10_000,
        max_latency_ms: 60_000,
        max_failure_streak: 3,
        evaluator_id: "proctor-paired-evaluator",
        evaluation_contract: "proctor-skill-paired-v1",
      },
    });
    const again = await proposeSkillQualification(db, { skill, agent, model: "gpt-4o-2024-08-06" });
    expect(again.created).toBe(false);
    expect(await skillQualification(db, skill)).toEqual(again.record);
    // The source runs are training evidence: they cannot come back as held-out cases.
    const reuse = recordEvaluation(db, record.scope, record.proposal.id, {
      ...fixtureEvaluation(0),
      evaluator_id: "proctor-paired-evaluator",
      evaluation_contract: "proctor-skill-paired-v1",
      evidence_ref: "proctor:workflow:wf_1",
    } as never);
    expect(await failure(reuse)).toBe("ValidationError");
  });

  it("fingerprints the toolbox whatever its order or key order, and the model", () => {
    const reordered = [
      { parameters: { type: "object", properties: {} }, description: "Refund", name: "issue_refund" },
      { description: "Find an order", name: "lookup_order", parameters: { properties: { order_id: { type: "string" } }, type: "object" } },
    ];
    expect(environmentFingerprint(reordered, "m")).toBe(environmentFingerprint(tools, "m"));
    expect(environmentFingerprint(tools, "m2")).not.toBe(environmentFingerprint(tools, "m"));
    expect(environmentFingerprint(tools.slice(0, 1), "m")).not.toBe(environmentFingerprint(tools, "m"));
  });

  it("takes the baseline and policy from the agent's learning configuration", async () => {
    const configured = { ...agent, learning: { ledger_baseline_revision: "skill-v1", ledger_qualification_trials: 64, ledger_evaluator_id: "ci-evaluator" } };
    const { record } = await proposeSkillQualification(db, { skill: { ...skill, version: 3 }, agent: configured, model: "m" });
    expect(record.proposal.baseline_revision).toBe("skill-v1");
    expect(record.proposal.policy).toMatchObject({ qualification_trials: 64, evaluator_id: "ci-evaluator", evaluation_contract: "proctor-skill-paired-v1" });
    // Invalid ledger keys never reach this point: the learning config refuses them on write (unit test).
  });

  it("starts only from a shadow skill of the same agent", async () => {
    expect(await failure(proposeSkillQualification(db, { skill: { ...skill, status: "ACTIVE" }, agent, model: "m" }))).toBe("MemoryOperation");
    expect(await failure(proposeSkillQualification(db, { skill: { ...skill, agentId: "other" }, agent, model: "m" }))).toBe("ValidationError");
    expect(await failure(proposeSkillQualification(db, { skill, agent, model: " " }))).toBe("ValidationError");
  });
});

// The SQL function ledger_record_evaluation applies the ledger's arithmetic in the database; this
// replays random procedures through it and through the TypeScript (lib/ledger/arithmetic.ts)
// and asks for the same aggregates, bit for bit, the same states and the same decisions.
describe(`the ledger's SQL arithmetic equals the TypeScript (${testDatabase()})`, () => {
  /** mulberry32: a seeded generator, so that a failure replays. */
  function generator(seed: number) {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const random = generator(20261201);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  // Gate values, signed zero and subnormals (where PostgreSQL's division would raise underflow).
  const EDGES = [0, -0, 1, 0.7, 0.75, 0.05, 5e-324, 1e-323, 2.5e-310, 1 - 2 ** -53];
  const utility = () => (random() < 0.3 ? EDGES[int(0, EDGES.length - 1)] : random() + random() * 2 ** -26);
  const aggregatesOf = (r: ProcedureAggregates): ProcedureAggregates => ({
    state: r.state,
    qualification_count: r.qualification_count,
    mean_improvement: r.mean_improvement,
    mean_candidate_utility: r.mean_candidate_utility,
    budget_violations: r.budget_violations,
    lower_improvement_bound: r.lower_improvement_bound,
    monitoring_count: r.monitoring_count,
    failure_streak: r.failure_streak,
  });
  const fresh: ProcedureAggregates = { state: "candidate", qualification_count: 0, mean_improvement: 0, mean_candidate_utility: 0, budget_violations: 0, lower_improvement_bound: null, monitoring_count: 0, failure_streak: 0 };
  const scope = { ...SCOPE, environment: "arithmetic" };
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

  async function replay(id: string, policy: LedgerPolicy, cases: (k: number, phase: PairedEvaluation["phase"]) => PairedEvaluation) {
    await proposeProcedure(db, { scope, ...fixtureProposal({ id }, policy) });
    let expected = fresh;
    const visited = new Set<string>();
    const decisions: { from: string; to: string; reason: string; triggering_case: string }[] = [];
    for (let k = 0; expected.state === "candidate" || (expected.state === "active" && expected.monitoring_count < 12); k++) {
      const e = cases(k, expected.state === "candidate" ? "qualification" : "monitoring");
      const { next, transition } = applyEvaluation(expected, policy, e);
      const result = await recordEvaluation(db, scope, id, e);
      expect(result.duplicate).toBe(false);
      expect(result.receipt.state_after, `${id} case ${k}`).toBe(next.state);
      // Delivered again: the stored receipt, whatever the checks would say about a new case now
      // (compared as JSON, where the stored 0 of a submitted -0 reads the same).
      expect(asJson(await recordEvaluation(db, scope, id, e))).toEqual(asJson({ receipt: result.receipt, duplicate: true }));
      expected = next;
      visited.add(next.state);
      if (transition) decisions.push({ ...transition, triggering_case: e.case_id });
      const stored = (await getProcedure(db, scope, id))!;
      expect(aggregatesOf(stored), `${id} case ${k}`).toEqual(expected);
    }
    const stored = (await getProcedure(db, scope, id))!;
    expect(stored.decisions.map(({ from, to, reason, triggering_case }) => ({ from, to, reason, triggering_case }))).toEqual(decisions);
    return visited;
  }

  it("on random policies and cases, edge values included", async () => {
    const states = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const policy: LedgerPolicy = {
        qualification_trials: int(2, 12),
        confidence_delta: random() < 0.2 ? 0.01 : random() * 0.5 || 0.25,
        min_improvement: random() < 0.5 ? 0 : random() * 0.2,
        min_candidate_utility: random() < 0.3 ? 0 : random(),
        max_cost_units: int(0, 20),
        max_latency_ms: int(0, 20),
        max_failure_streak: int(1, 4),
        evaluator_id: "test-harness",
        evaluation_contract: "held-out-suite-v1",
      };
      // Most procedures get strong candidates within budget, so that monitoring is reached too.
      const strong = random() < 0.6;
      const cases = (k: number, phase: PairedEvaluation["phase"]): PairedEvaluation => ({
        ...fixtureEvaluation(k, phase),
        baseline_utility: strong && phase === "qualification" ? utility() / 64 : utility(),
        candidate_utility: strong && phase === "qualification" ? 1 - utility() / 64 : utility(),
        candidate_cost_units: strong && phase === "qualification" ? 0 : int(0, 22),
        candidate_latency_ms: strong && phase === "qualification" ? 0 : int(0, 22),
      });
      for (const state of await replay(`random-${i}`, { ...policy, confidence_delta: strong ? 0.45 : policy.confidence_delta, min_improvement: strong ? 0 : policy.min_improvement }, cases)) states.add(state);
    }
    // The replay went through every state of the state machine.
    expect([...states].sort()).toEqual(["active", "candidate", "rejected", "suspended"]);
  });

  it("where a quotient is a subnormal that rounds to zero", async () => {
    const policy = { ...fixtureProposal().policy, qualification_trials: 3, confidence_delta: 0.01, min_improvement: 0.05, min_candidate_utility: 0.7, max_cost_units: 10_000, max_latency_ms: 60_000, max_failure_streak: 3 };
    const utilities = [5e-324, 0, 0];
    const visited = await replay("subnormal", policy, (k, phase) => ({ ...fixtureEvaluation(k, phase), baseline_utility: 0, candidate_utility: utilities[k] }));
    expect(visited).toContain("rejected");
  });
});
