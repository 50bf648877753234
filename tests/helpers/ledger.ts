// The ledger tests' fixture (as in the reference implementation's tests) and a small client
// for the ledger's HTTP API.
// Proposals go with the agent's (ledger:propose) key, evaluations with an evaluator's
// (ledger:evaluate) key bound to the evaluation's evaluator_id: a proposer never evaluates.
import { call, type Caller } from "./http";

export type Scope = { tenant: string; agent: string; environment: string };

export const SCOPE: Scope = { tenant: "tenant-a", agent: "agent-a", environment: "model-tools-v1" };
export const INSTRUCTIONS = "Read the observed state before choosing an action.";

export function fixtureProposal(over: Record<string, unknown> = {}, policy: Record<string, unknown> = {}) {
  return {
    id: "procedure-1",
    task: "resolve-task",
    baseline_revision: "baseline-v1",
    instructions: INSTRUCTIONS,
    source_refs: ["episode:training-1"],
    policy: { qualification_trials: 32, evaluator_id: "test-harness", evaluation_contract: "held-out-suite-v1", ...policy },
    ...over,
  };
}

export function fixtureEvaluation(k: number | string, phase: "qualification" | "monitoring" = "qualification", over: Record<string, unknown> = {}) {
  return {
    case_id: `case-${k}`,
    phase,
    evaluator_id: "test-harness",
    evaluation_contract: "held-out-suite-v1",
    // The reference fixture's `trace:held-out-k` would have to name a stored run here
    // (lib/ledger/evidence.ts).
    evidence_ref: `eval:held-out-${k}`,
    baseline_utility: 0,
    candidate_utility: 1,
    candidate_cost_units: 10,
    candidate_latency_ms: 100,
    ...over,
  };
}

const enc = encodeURIComponent;
const scopeQuery = (s: Scope) => `tenant=${enc(s.tenant)}&agent=${enc(s.agent)}&environment=${enc(s.environment)}`;

/** The caller that records an evaluation: one key, or the key of the evaluation's evaluator_id. */
export type Evaluators = Caller | ((evaluatorId: string) => Promise<Caller>);

export function ledgerClient(baseUrl: string, caller: Caller, evaluators: Evaluators = caller) {
  const evaluatorFor = async (evaluation: Record<string, unknown>) =>
    typeof evaluators === "function" ? evaluators(String(evaluation.evaluator_id)) : evaluators;
  return {
    propose: (scope: Scope, proposal: Record<string, unknown>) => call(baseUrl, caller, "POST", "/api/v1/ledger/procedures", { scope, ...proposal }),
    record: async (scope: Scope, id: string, evaluation: Record<string, unknown>) =>
      call(baseUrl, await evaluatorFor(evaluation), "POST", `/api/v1/ledger/procedures/${enc(id)}/evaluations`, { scope, ...evaluation }),
    get: (scope: Scope, id: string) => call(baseUrl, caller, "GET", `/api/v1/ledger/procedures/${enc(id)}?${scopeQuery(scope)}`),
    evaluation: (scope: Scope, id: string, caseId: string) =>
      call(baseUrl, caller, "GET", `/api/v1/ledger/procedures/${enc(id)}/evaluations/${enc(caseId)}?${scopeQuery(scope)}`),
    select: (scope: Scope, q: { task?: string; baseline_revision?: string; evaluation_contract?: string; max_instruction_bytes?: number | string } = {}) => {
      const p = { task: "resolve-task", baseline_revision: "baseline-v1", evaluation_contract: "held-out-suite-v1", max_instruction_bytes: 4096, ...q };
      const extra = Object.entries(p).map(([k, v]) => `${k}=${enc(String(v))}`).join("&");
      return call(baseUrl, caller, "GET", `/api/v1/ledger/select?${scopeQuery(scope)}&${extra}`);
    },
  };
}

export type LedgerClient = ReturnType<typeof ledgerClient>;

/** Records cases `from`..`to` (inclusive) in order and returns their responses. */
export async function recordRange(
  ledger: LedgerClient,
  scope: Scope,
  id: string,
  from: number,
  to: number,
  make: (k: number) => Record<string, unknown> = (k) => fixtureEvaluation(k),
) {
  const out = [];
  for (let k = from; k <= to; k++) out.push(await ledger.record(scope, id, make(k)));
  return out;
}
