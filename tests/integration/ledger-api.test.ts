// The evidence ledger through its HTTP API (the ledger operations of lib/api/v1/contract.ts)
// against the real server: every acceptance case (★, numbered as there) of the reference
// implementation's ledger tests and the further cases its code implies, with its exact numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { evaluatorKeys } from "../helpers/keys";
import { fixtureEvaluation, fixtureProposal, INSTRUCTIONS, ledgerClient, recordRange, SCOPE, type LedgerClient, type Scope } from "../helpers/ledger";

let server: TestServer;
let ledger: LedgerClient;
/** The fixture evaluator's key (ledger:evaluate, bound to "test-harness"), for raw requests. */
let evaluator: Caller;
beforeAll(async () => {
  server = await startTestServer();
  // The bootstrap key proposes (ledger:propose); each evaluator_id records with its own key.
  const evaluators = evaluatorKeys(server, await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD));
  ledger = ledgerClient(server.baseUrl, withKey(ADMIN_KEY), evaluators);
  evaluator = await evaluators("test-harness");
});
afterAll(async () => {
  await server?.stop();
});

const RADIUS_32 = 0.5364915065723368;
const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(1e-12);
/** Each test gets its own scope, so that selection never sees another test's procedures. */
const scopeOf = (name: string): Scope => ({ ...SCOPE, environment: `model-tools-v1/${name}` });

async function proposed(scope: Scope, over: Record<string, unknown> = {}, policy: Record<string, unknown> = {}) {
  const r = await ledger.propose(scope, fixtureProposal(over, policy));
  expect(r.status, r.text).toBe(201);
  return r.json;
}

async function qualified(scope: Scope, id = "procedure-1", make?: (k: number) => Record<string, unknown>) {
  const results = await recordRange(ledger, scope, id, 0, 31, make);
  for (const r of results) expect(r.status, r.text).toBe(201);
  return results;
}

async function rowCount(table: "ledger_evaluations" | "ledger_decisions" | "ledger_procedures", scope: Scope, id = "procedure-1") {
  const r = await server.sql.query(
    `SELECT count(*)::int AS n FROM ${table} WHERE tenant = $1 AND agent = $2 AND environment = $3 AND procedure_id = $4`,
    [scope.tenant, scope.agent, scope.environment, id],
  );
  return r.rows[0].n as number;
}

describe(`evidence ledger API: the reference test cases (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  // Surviving a restart (state in the database, none in the process) is ledger-core's: a new client.
  it("★1 promotes only after the fixed budget; the record and its receipt read back the same", async () => {
    const created = await proposed(SCOPE);
    expect(created).toMatchObject({
      scope: SCOPE,
      proposal: fixtureProposal({}, { confidence_delta: 0.01, min_improvement: 0.05, min_candidate_utility: 0.7, max_cost_units: 10_000, max_latency_ms: 60_000, max_failure_streak: 3 }),
      state: "candidate",
      qualification_count: 0,
      mean_improvement: 0,
      mean_candidate_utility: 0,
      budget_violations: 0,
      lower_improvement_bound: null,
      monitoring_count: 0,
      failure_streak: 0,
      decisions: [],
    });
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);
    for (let k = 0; k <= 30; k++) {
      const r = await ledger.record(SCOPE, "procedure-1", fixtureEvaluation(k));
      expect(r.status, r.text).toBe(201);
      expect(r.json).toMatchObject({ receipt: { evaluation: fixtureEvaluation(k), state_after: "candidate" }, duplicate: false });
      if (k % 10 === 0 || k === 30) expect((await ledger.select(SCOPE)).json).toEqual({ procedure: null });
    }
    const last = await ledger.record(SCOPE, "procedure-1", fixtureEvaluation(31));
    expect(last.json.receipt.state_after).toBe("active");
    const selected = (await ledger.select(SCOPE)).json.procedure;
    expect(selected).toMatchObject({ state: "active", qualification_count: 32, mean_improvement: 1, mean_candidate_utility: 1 });
    near(selected.lower_improvement_bound, 0.4635084934276632);
    expect(selected.lower_improvement_bound).toBeGreaterThan(0.05);
    expect(selected.decisions).toEqual([
      {
        from: "candidate",
        to: "active",
        reason: "Fixed evaluation budget passed utility, improvement and resource gates",
        triggering_case: "case-31",
        recorded_at: last.json.receipt.recorded_at,
      },
    ]);

    expect((await ledger.get(SCOPE, "procedure-1")).json).toEqual(selected);
    expect((await ledger.select(SCOPE)).json.procedure).toEqual(selected);
    const receipt = await ledger.evaluation(SCOPE, "procedure-1", "case-31");
    expect(receipt.status).toBe(200);
    expect(receipt.json).toEqual(last.json.receipt);
  });

  it("★2 a duplicate delivery is idempotent; conflicting feedback under the case id is 409", async () => {
    const scope = scopeOf("duplicates");
    await proposed(scope);
    const first = await ledger.record(scope, "procedure-1", fixtureEvaluation(0));
    expect(first.status).toBe(201);
    const again = await ledger.record(scope, "procedure-1", fixtureEvaluation(0));
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ receipt: first.json.receipt, duplicate: true });
    const changed = await ledger.record(scope, "procedure-1", fixtureEvaluation(0, "qualification", { candidate_utility: 0 }));
    expect(changed.status).toBe(409);
    expect(changed.json.code).toBe("conflict");
    expect((await ledger.get(scope, "procedure-1")).json.qualification_count).toBe(1);
    expect(await rowCount("ledger_evaluations", scope)).toBe(1);
  });

  it("★3 a regression suspends and returns to the baseline without losing evidence", async () => {
    const scope = scopeOf("regression");
    await proposed(scope);
    await qualified(scope);
    const monitoring = await recordRange(ledger, scope, "procedure-1", 32, 34, (k) => fixtureEvaluation(k, "monitoring", { baseline_utility: 1, candidate_utility: 0 }));
    expect(monitoring.map((r) => r.json.receipt.state_after)).toEqual(["active", "active", "suspended"]);
    const record = (await ledger.get(scope, "procedure-1")).json;
    expect(record).toMatchObject({ state: "suspended", qualification_count: 32, monitoring_count: 3, failure_streak: 3 });
    expect(record.decisions.map((d: { from: string; to: string; triggering_case: string; reason: string }) => [d.from, d.to, d.triggering_case, d.reason])).toEqual([
      ["candidate", "active", "case-31", "Fixed evaluation budget passed utility, improvement and resource gates"],
      ["active", "suspended", "case-34", "Monitoring failure streak reached policy limit; fall back to baseline"],
    ]);
    expect((await ledger.select(scope)).json.procedure).toBeNull();
    expect((await ledger.evaluation(scope, "procedure-1", "case-34")).json.state_after).toBe("suspended");
    const late = await ledger.record(scope, "procedure-1", fixtureEvaluation(35, "monitoring"));
    expect(late.status).toBe(409);
    expect(late.json.code).toBe("invalid_state");
    const retry = await ledger.record(scope, "procedure-1", fixtureEvaluation(0));
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ duplicate: true, receipt: { state_after: "candidate" } });
    expect(await rowCount("ledger_evaluations", scope)).toBe(35);
  });

  it("★4 rejects no gain, and excessive cost, at the fixed budget", async () => {
    const noGain = scopeOf("no-gain");
    await proposed(noGain);
    await qualified(noGain, "procedure-1", (k) => fixtureEvaluation(k, "qualification", { baseline_utility: 1, candidate_utility: 1 }));
    const a = (await ledger.get(noGain, "procedure-1")).json;
    expect(a).toMatchObject({ state: "rejected", mean_improvement: 0, budget_violations: 0 });
    near(a.lower_improvement_bound, -RADIUS_32);
    expect((await ledger.record(noGain, "procedure-1", fixtureEvaluation(33))).json.code).toBe("invalid_state");

    const costly = scopeOf("costly");
    await proposed(costly);
    await qualified(costly, "procedure-1", (k) => fixtureEvaluation(k, "qualification", { candidate_cost_units: 10_001 }));
    const b = (await ledger.get(costly, "procedure-1")).json;
    expect(b).toMatchObject({ state: "rejected", mean_improvement: 1, budget_violations: 32 });
    near(b.lower_improvement_bound, 1 - RADIUS_32);
    expect(b.decisions[0]).toMatchObject({ from: "candidate", to: "rejected", reason: "Fixed evaluation budget failed one or more promotion gates" });
    const after = await ledger.record(costly, "procedure-1", fixtureEvaluation(33));
    expect(after.status).toBe(409);
    expect(after.json.code).toBe("invalid_state");
  });

  it("★5 isolates scope (tenant, agent, environment), baseline and the context byte budget", async () => {
    const scope = scopeOf("isolation");
    await proposed(scope);
    await qualified(scope);
    for (const field of ["tenant", "agent", "environment"] as const) {
      const other = { ...scope, [field]: scope[field] + "b" };
      expect((await ledger.get(other, "procedure-1")).status).toBe(404);
      expect((await ledger.select(other)).json).toEqual({ procedure: null });
      const r = await ledger.record(other, "procedure-1", fixtureEvaluation(40, "monitoring"));
      expect(r.status).toBe(404);
      expect(r.json.code).toBe("not_found");
    }
    expect((await ledger.select(scope, { baseline_revision: "baseline-v2" })).json.procedure).toBeNull();
    expect((await ledger.select(scope, { max_instruction_bytes: 1 })).json.procedure).toBeNull();
    expect((await ledger.select(scope, { max_instruction_bytes: 49 })).json.procedure).toBeNull();
    expect((await ledger.select(scope, { max_instruction_bytes: 50 })).json.procedure.proposal.id).toBe("procedure-1");
    expect((await ledger.select(scope, { max_instruction_bytes: 0 })).json.procedure).toBeNull();
    expect((await ledger.select(scope, { max_instruction_bytes: Number.MAX_SAFE_INTEGER })).json.procedure.proposal.id).toBe("procedure-1");
  });

  it("★6 rejects invalid scores, contracts, held-out overlap, phases and mutation without consuming the case", async () => {
    const scope = scopeOf("invalid");
    await proposed(scope);
    const changed = await ledger.propose(scope, fixtureProposal({ instructions: INSTRUCTIONS + " Then act." }));
    expect(changed.status).toBe(409);
    expect(changed.json.code).toBe("conflict");
    const path = `/api/v1/ledger/procedures/procedure-1/evaluations`;
    const raw = (utility: string) =>
      JSON.stringify({ scope, ...fixtureEvaluation(0) }).replace('"candidate_utility":1', `"candidate_utility":${utility}`);
    for (const u of ["NaN", "Infinity", "1e999", "-1e999", "-0.01", "1.01", '"1"']) {
      const r = await call(server.baseUrl, evaluator, "POST", path, raw(u));
      expect(r.status, u).toBe(400);
      expect(r.json.code).toBe("validation_error");
    }
    const cases: [Record<string, unknown>, number, string][] = [
      [{ evaluator_id: "unregistered" }, 400, "validation_error"],
      [{ evaluation_contract: "different-rubric" }, 400, "validation_error"],
      [{ evidence_ref: "episode:training-1" }, 400, "validation_error"],
      [{ phase: "monitoring" }, 409, "invalid_state"],
    ];
    for (const [over, status, code] of cases) {
      const r = await ledger.record(scope, "procedure-1", fixtureEvaluation(0, "qualification", over));
      expect(r.status, JSON.stringify(over)).toBe(status);
      expect(r.json.code).toBe(code);
    }
    expect((await ledger.get(scope, "procedure-1")).json.qualification_count).toBe(0);
    expect(await rowCount("ledger_evaluations", scope)).toBe(0);
    expect((await ledger.record(scope, "procedure-1", fixtureEvaluation(0))).status).toBe(201);
  });

  it("★7 eight concurrent clients count each case once, and every call succeeds", async () => {
    const scope = scopeOf("concurrent");
    await proposed(scope);
    const workers = Array.from({ length: 8 }, async () => {
      const results = [];
      for (let k = 0; k < 32; k++) results.push(await ledger.record(scope, "procedure-1", fixtureEvaluation(k)));
      return results;
    });
    const all = (await Promise.all(workers)).flat();
    for (const r of all) expect([200, 201], r.text).toContain(r.status);
    for (let k = 0; k < 32; k++) {
      const forCase = all.filter((r) => r.json.receipt.evaluation.case_id === `case-${k}`);
      expect(forCase.filter((r) => !r.json.duplicate)).toHaveLength(1);
      expect(new Set(forCase.map((r) => r.json.receipt.recorded_at)).size).toBe(1);
    }
    const record = (await ledger.get(scope, "procedure-1")).json;
    expect(record).toMatchObject({ state: "active", qualification_count: 32, mean_improvement: 1 });
    expect(record.decisions).toHaveLength(1);
    expect(await rowCount("ledger_evaluations", scope)).toBe(32);
    expect(await rowCount("ledger_decisions", scope)).toBe(1);
  }, 120_000);

  it("★7b eight concurrent identical deliveries of one new case: one write, seven duplicates", async () => {
    const scope = scopeOf("identical");
    await proposed(scope);
    const results = await Promise.all(Array.from({ length: 8 }, () => ledger.record(scope, "procedure-1", fixtureEvaluation(0))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => JSON.stringify(r.json.receipt))).size).toBe(1);
    expect(await rowCount("ledger_evaluations", scope)).toBe(1);
  });

  it("★8 one success resets the failure streak and latency is a hard gate (60,001 > 60,000)", async () => {
    const scope = scopeOf("streak");
    await proposed(scope);
    await qualified(scope);
    const streaks: [string, number][] = [];
    for (let k = 32; k <= 37; k++) {
      const r = await ledger.record(scope, "procedure-1", fixtureEvaluation(k, "monitoring", { candidate_latency_ms: k === 34 ? 100 : 60_001 }));
      expect(r.status).toBe(201);
      const rec = (await ledger.get(scope, "procedure-1")).json;
      streaks.push([rec.state, rec.failure_streak]);
    }
    expect(streaks).toEqual([
      ["active", 1],
      ["active", 2],
      ["active", 0],
      ["active", 1],
      ["active", 2],
      ["suspended", 3],
    ]);
  });

  it("★9 rejects a high relative gain with low absolute quality", async () => {
    const scope = scopeOf("low-quality");
    await proposed(scope);
    await qualified(scope, "procedure-1", (k) => fixtureEvaluation(k, "qualification", { candidate_utility: 0.65 }));
    const r = (await ledger.get(scope, "procedure-1")).json;
    expect(r).toMatchObject({ state: "rejected", mean_candidate_utility: 0.65, budget_violations: 0 });
    near(r.lower_improvement_bound, 0.65 - RADIUS_32);
    expect(r.lower_improvement_bound).toBeGreaterThan(0.05);
  });

  it("★10 the bound accounts for the paired range (running mean 0.49999999999999994)", async () => {
    const scope = scopeOf("paired-range");
    await proposed(scope);
    await qualified(scope, "procedure-1", (k) => fixtureEvaluation(k, "qualification", k < 8 ? { baseline_utility: 1, candidate_utility: 0 } : {}));
    const r = (await ledger.get(scope, "procedure-1")).json;
    near(r.mean_improvement, 0.5);
    // Bit-identical to the reference's incremental update, which is not sum/n.
    expect(r.mean_improvement).toBe(0.49999999999999994);
    near(r.lower_improvement_bound, -0.0364915065723368);
    near(r.lower_improvement_bound, -0.03649150657233685);
    expect(r.state).toBe("rejected");
  });

  it("★11 validates the policy and retries of immutable proposals", async () => {
    const scope = scopeOf("policy");
    const path = "/api/v1/ledger/procedures";
    const body = (policy: string) =>
      JSON.stringify({ scope, ...fixtureProposal({ id: "bad-policy" }) }).replace('"qualification_trials":32', `"qualification_trials":32,${policy}`);
    for (const d of ["0.0", "0.5", "NaN", "1e999", "-1.0"]) {
      const r = await call(server.baseUrl, withKey(ADMIN_KEY), "POST", path, body(`"confidence_delta":${d}`));
      expect(r.status, d).toBe(400);
    }
    for (const n of [0, 1, 1_000_001]) {
      const r = await ledger.propose(scope, fixtureProposal({ id: "bad-policy" }, { qualification_trials: n }));
      expect(r.status, String(n)).toBe(400);
      expect(r.json.code).toBe("validation_error");
    }
    expect((await ledger.propose(scope, fixtureProposal({ id: "bad-policy", source_refs: [] }))).status).toBe(400);
    expect(await rowCount("ledger_procedures", scope, "bad-policy")).toBe(0);
    const first = await ledger.propose(scope, fixtureProposal());
    const second = await ledger.propose(scope, fixtureProposal());
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.json).toEqual(first.json);
  });

  it("★12 length-prefixed scopes do not alias; selection is deterministic by byte order", async () => {
    const aliases: [Scope, Scope][] = [
      [{ tenant: "a:b", agent: "c", environment: "日本語" }, { tenant: "a", agent: "b:c", environment: "日本語" }],
      [{ tenant: "a", agent: "b/c", environment: "d" }, { tenant: "a/b", agent: "c", environment: "d" }],
      [{ tenant: "x\u0001y", agent: "z", environment: "😀" }, { tenant: "x", agent: "\u0001yz", environment: "😀" }],
      [{ tenant: "t", agent: "é", environment: "e" }, { tenant: "t", agent: "e\u0301", environment: "e" }],
    ];
    for (const [one, other] of aliases) {
      await proposed(one, { id: "aliased" });
      await ledger.record(one, "aliased", fixtureEvaluation(0));
      expect((await ledger.get(other, "aliased")).status).toBe(404);
      expect((await ledger.evaluation(other, "aliased", "case-0")).status).toBe(404);
      expect((await ledger.select(other)).json.procedure).toBeNull();
      expect((await ledger.record(other, "aliased", fixtureEvaluation(0))).status).toBe(404);
      expect((await ledger.get(one, "aliased")).json.scope).toEqual(one);
    }

    const scope = scopeOf("selection");
    for (const id of ["b", "a"]) {
      await proposed(scope, { id, instructions: "日本語" });
      await qualified(scope, id);
    }
    expect((await ledger.select(scope, { max_instruction_bytes: 8 })).json.procedure).toBeNull();
    const winner = (await ledger.select(scope, { max_instruction_bytes: 9 })).json.procedure;
    expect(winner.proposal.id).toBe("a");

    // U+FF61 sorts before U+1F600 in UTF-8 bytes, after it in UTF-16 units (JavaScript's <).
    const unicode = scopeOf("selection-unicode");
    for (const id of ["😀", "\uFF61"]) {
      await proposed(unicode, { id });
      await qualified(unicode, id);
    }
    expect((await ledger.select(unicode)).json.procedure.proposal.id).toBe("\uFF61");
  });

  it("★14 selection never mixes evaluation contracts", async () => {
    const scope = scopeOf("contracts");
    await proposed(scope);
    await qualified(scope);
    expect((await ledger.select(scope, { evaluation_contract: "incompatible-rubric" })).json.procedure).toBeNull();
    expect((await ledger.select(scope)).json.procedure.proposal.id).toBe("procedure-1");
  });

  it("★15 the same evidence cannot inflate the sample under another case id", async () => {
    const scope = scopeOf("evidence");
    await proposed(scope);
    expect((await ledger.record(scope, "procedure-1", fixtureEvaluation(0))).status).toBe(201);
    const again = await ledger.record(scope, "procedure-1", { ...fixtureEvaluation(0), case_id: "different-case-same-evidence" });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("conflict");
    expect((await ledger.get(scope, "procedure-1")).json.qualification_count).toBe(1);
  });
});

describe("evidence ledger API: the reference test cases, continued", () => {
  it("trials = 2 with perfect scores: bound stored as exactly −1, Rejected", async () => {
    const scope = scopeOf("two-trials");
    await proposed(scope, {}, { qualification_trials: 2 });
    await recordRange(ledger, scope, "procedure-1", 0, 1);
    const r = (await ledger.get(scope, "procedure-1")).json;
    expect(r).toMatchObject({ state: "rejected", lower_improvement_bound: -1, mean_improvement: 1 });
  });

  it("cost and latency exactly at the limits are not violations, in qualification or monitoring", async () => {
    const scope = scopeOf("at-limits");
    await proposed(scope);
    const atLimit = { candidate_cost_units: 10_000, candidate_latency_ms: 60_000 };
    await qualified(scope, "procedure-1", (k) => fixtureEvaluation(k, "qualification", atLimit));
    expect((await ledger.get(scope, "procedure-1")).json).toMatchObject({ state: "active", budget_violations: 0 });
    await ledger.record(scope, "procedure-1", fixtureEvaluation(32, "monitoring", atLimit));
    expect((await ledger.get(scope, "procedure-1")).json).toMatchObject({ state: "active", failure_streak: 0, monitoring_count: 1 });
  });

  it("monitoring: a tie at or above the floor resets the streak; 0.69 against 0.0 under a 0.7 floor fails", async () => {
    const scope = scopeOf("ties");
    await proposed(scope);
    await qualified(scope);
    await ledger.record(scope, "procedure-1", fixtureEvaluation(32, "monitoring", { baseline_utility: 0, candidate_utility: 0.69 }));
    expect((await ledger.get(scope, "procedure-1")).json.failure_streak).toBe(1);
    await ledger.record(scope, "procedure-1", fixtureEvaluation(33, "monitoring", { baseline_utility: 0.7, candidate_utility: 0.7 }));
    expect((await ledger.get(scope, "procedure-1")).json.failure_streak).toBe(0);
    await ledger.record(scope, "procedure-1", fixtureEvaluation(34, "monitoring", { baseline_utility: 0.8, candidate_utility: 0.75 }));
    expect((await ledger.get(scope, "procedure-1")).json.failure_streak).toBe(1);
  });

  it("max_failure_streak = 1 suspends on the first bad monitoring case", async () => {
    const scope = scopeOf("streak-one");
    await proposed(scope, {}, { max_failure_streak: 1 });
    await qualified(scope);
    const r = await ledger.record(scope, "procedure-1", fixtureEvaluation(32, "monitoring", { candidate_utility: 0 }));
    expect(r.json.receipt.state_after).toBe("suspended");
  });

  it("reusing a qualification case id in monitoring is a conflict; reusing its evidence under a new id too", async () => {
    const scope = scopeOf("phase-reuse");
    await proposed(scope);
    await qualified(scope);
    const sameCase = await ledger.record(scope, "procedure-1", fixtureEvaluation(3, "monitoring"));
    expect(sameCase.status).toBe(409);
    expect(sameCase.json.code).toBe("conflict");
    const sameEvidence = await ledger.record(scope, "procedure-1", { ...fixtureEvaluation(3, "monitoring"), case_id: "monitoring-new" });
    expect(sameEvidence.status).toBe(409);
    expect(sameEvidence.json.code).toBe("conflict");
    expect((await ledger.get(scope, "procedure-1")).json.monitoring_count).toBe(0);
  });

  it("propose after Active returns the Active record unchanged", async () => {
    const scope = scopeOf("repropose");
    await proposed(scope);
    await qualified(scope);
    const before = (await ledger.get(scope, "procedure-1")).json;
    const again = await ledger.propose(scope, fixtureProposal());
    expect(again.status).toBe(200);
    expect(again.json).toEqual(before);
    expect(again.json.state).toBe("active");
  });

  it("blank or whitespace-only fields are invalid (Rust's trim: a lone BOM is content)", async () => {
    const scope = scopeOf("blank");
    const blanks: Record<string, unknown>[] = [
      { id: "   " },
      { task: "\t\n" },
      { baseline_revision: "\u3000" },
      { instructions: "\u0085 " },
      { source_refs: ["ok", " "] },
      { policy: { evaluator_id: "\u2028", evaluation_contract: "c" } },
    ];
    for (const over of blanks) {
      const r = await ledger.propose(scope, fixtureProposal({ id: "blank-check", ...over }));
      expect(r.status, JSON.stringify(over)).toBe(400);
    }
    expect((await ledger.propose({ ...scope, tenant: " " }, fixtureProposal())).status).toBe(400);
    expect((await ledger.propose(scope, fixtureProposal({ id: "\uFEFF" }))).status).toBe(201);
    await proposed(scope);
    for (const over of [{ case_id: " " }, { evidence_ref: "\r\n" }, { evaluator_id: "" }]) {
      expect((await ledger.record(scope, "procedure-1", fixtureEvaluation(0, "qualification", over))).status).toBe(400);
    }
    expect((await ledger.get(scope, " ")).status).toBe(400);
    expect((await ledger.select(scope, { task: " " })).status).toBe(400);
  });

  it("checks every length limit at the limit and one byte over (UTF-8 bytes, not characters)", async () => {
    const scope = scopeOf("limits");
    const bytes = (n: number) => "日".repeat(Math.floor(n / 3)) + "x".repeat(n % 3);
    const limits: [string, number, (s: string) => Record<string, unknown>][] = [
      ["id", 512, (s) => ({ id: s })],
      ["task", 512, (s) => ({ id: `task-${s.length}`, task: s })],
      ["baseline", 512, (s) => ({ id: `baseline-${s.length}`, baseline_revision: s })],
      ["source ref", 2048, (s) => ({ id: `ref-${s.length}`, source_refs: [s] })],
      ["instructions", 65_536, (s) => ({ id: `instructions-${s.length}`, instructions: s })],
      ["evaluator", 512, (s) => ({ id: `evaluator-${s.length}`, policy: { evaluator_id: s, evaluation_contract: "c" } })],
    ];
    for (const [name, limit, over] of limits) {
      expect((await ledger.propose(scope, fixtureProposal(over(bytes(limit))))).status, `${name} at ${limit}`).toBe(201);
      expect((await ledger.propose(scope, fixtureProposal(over(bytes(limit + 1))))).status, `${name} at ${limit + 1}`).toBe(400);
    }
    expect((await ledger.propose(scope, fixtureProposal({ id: "refs-128", source_refs: Array.from({ length: 128 }, (_, i) => `r${i}`) }))).status).toBe(201);
    expect((await ledger.propose(scope, fixtureProposal({ id: "refs-129", source_refs: Array.from({ length: 129 }, (_, i) => `r${i}`) }))).status).toBe(400);
    expect((await ledger.propose({ ...scope, tenant: bytes(513) }, fixtureProposal())).status).toBe(400);

    await proposed(scope);
    for (const [over, status] of [
      [{ case_id: bytes(512), evidence_ref: "e-512" }, 201],
      [{ case_id: bytes(513), evidence_ref: "e-513" }, 400],
      [{ case_id: "ev-2048", evidence_ref: bytes(2048) }, 201],
      [{ case_id: "ev-2049", evidence_ref: bytes(2049) }, 400],
    ] as const) {
      expect((await ledger.record(scope, "procedure-1", fixtureEvaluation(0, "qualification", over))).status, JSON.stringify(over).slice(0, 40)).toBe(status);
    }
  });

  it("stores and finds records whose every key field is at its limit", async () => {
    const max = (c: string, n: number) => c.repeat(n);
    const scope = { tenant: max("t", 512), agent: max("a", 512), environment: max("é", 256) };
    const proposal = fixtureProposal({ id: max("p", 512), task: max("k", 512), baseline_revision: max("b", 512), source_refs: [max("s", 2048)] }, { evaluator_id: max("v", 512), evaluation_contract: max("c", 512) });
    expect((await ledger.propose(scope, proposal)).status).toBe(201);
    const evaluation = fixtureEvaluation(0, "qualification", { case_id: max("q", 512), evidence_ref: max("r", 2048), evaluator_id: max("v", 512), evaluation_contract: max("c", 512) });
    const r = await ledger.record(scope, max("p", 512), evaluation);
    expect(r.status, r.text).toBe(201);
    expect((await ledger.evaluation(scope, max("p", 512), max("q", 512))).json.evaluation).toEqual(evaluation);
    const again = await ledger.record(scope, max("p", 512), { ...evaluation, case_id: max("w", 512) });
    expect(again.status).toBe(409);
    const selected = await ledger.select(scope, { task: max("k", 512), baseline_revision: max("b", 512), evaluation_contract: max("c", 512) });
    expect(selected.json).toEqual({ procedure: null });
  });

  it("rejects counters beyond 2^53−1, negative or fractional values, NUL and lone surrogates", async () => {
    const scope = scopeOf("numbers");
    await proposed(scope);
    for (const over of [
      { candidate_cost_units: 2 ** 53 },
      { candidate_cost_units: -1 },
      { candidate_latency_ms: 1.5 },
      { candidate_latency_ms: "100" },
      { baseline_utility: null },
    ]) {
      const r = await ledger.record(scope, "procedure-1", fixtureEvaluation(0, "qualification", over));
      expect(r.status, JSON.stringify(over)).toBe(400);
    }
    for (const policy of [{ max_cost_units: 2 ** 53 }, { max_latency_ms: -5 }, { max_failure_streak: 2.5 }, { qualification_trials: "32" }]) {
      expect((await ledger.propose(scope, fixtureProposal({ id: "numbers-2" }, policy))).status, JSON.stringify(policy)).toBe(400);
    }
    expect((await ledger.propose(scope, fixtureProposal({ id: "numbers-3" }, { max_cost_units: 2 ** 53 - 1, max_latency_ms: 0 }))).status).toBe(201);
    const path = "/api/v1/ledger/procedures/procedure-1/evaluations";
    const nul = JSON.stringify({ scope, ...fixtureEvaluation(0, "qualification", { evidence_ref: "a\u0000b" }) });
    expect((await call(server.baseUrl, evaluator, "POST", path, nul)).status).toBe(400);
    const lone = JSON.stringify({ scope, ...fixtureEvaluation(0) }).replace('"eval:held-out-0"', '"trace:\\ud800"');
    expect((await call(server.baseUrl, evaluator, "POST", path, lone)).status).toBe(400);
    expect(await rowCount("ledger_evaluations", scope)).toBe(0);
    expect(await rowCount("ledger_procedures", scope, "numbers-2")).toBe(0);
  });

  it("answers with the category of the first failing check in the spec's order", async () => {
    const scope = scopeOf("order");
    await proposed(scope, {}, { max_failure_streak: 1 });
    await qualified(scope);
    await ledger.record(scope, "procedure-1", fixtureEvaluation(32, "monitoring", { candidate_utility: 0 }));
    expect((await ledger.get(scope, "procedure-1")).json.state).toBe("suspended");
    const expectCode = async (evaluation: Record<string, unknown>, status: number, code: string, id = "procedure-1") => {
      const r = await ledger.record(scope, id, evaluation);
      expect(r.status, JSON.stringify(evaluation).slice(0, 80)).toBe(status);
      expect(r.json.code).toBe(code);
    };
    // Validation of the fields comes before everything, even an unknown procedure.
    await expectCode(fixtureEvaluation(50, "monitoring", { candidate_utility: 2 }), 400, "validation_error", "missing");
    // A stored identical case is a duplicate before any state check; a changed one a conflict.
    expect((await ledger.record(scope, "procedure-1", fixtureEvaluation(5))).status).toBe(200);
    await expectCode(fixtureEvaluation(5, "qualification", { evaluator_id: "unregistered" }), 409, "conflict");
    // The procedure lookup comes before the evaluator check.
    await expectCode(fixtureEvaluation(50, "monitoring", { evaluator_id: "unregistered" }), 404, "not_found", "missing");
    // Evaluator, held-out overlap and evidence claims come before the phase/state check.
    await expectCode(fixtureEvaluation(50, "monitoring", { evaluator_id: "unregistered" }), 400, "validation_error");
    await expectCode(fixtureEvaluation(50, "monitoring", { evidence_ref: "episode:training-1" }), 400, "validation_error");
    await expectCode(fixtureEvaluation(50, "monitoring", { evidence_ref: "eval:held-out-7" }), 409, "conflict");
    await expectCode(fixtureEvaluation(50, "monitoring"), 409, "invalid_state");
  });
});

describe("evidence ledger API access", () => {
  it("needs an API key with the ingest scope to write", async () => {
    const anonymousCall = await call(server.baseUrl, { headers: {} }, "POST", "/api/v1/ledger/procedures", { scope: SCOPE, ...fixtureProposal() });
    expect(anonymousCall.status).toBe(401);
  });
});
