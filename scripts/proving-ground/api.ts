// The admin and evaluator calls the proving ground makes beside the SDK (which covers runs and
// skill injection): promotion cycles, skill lists and decisions, imports, ledger evaluations.
// Every call is a published agent API operation (GET /api/v1/openapi.json).
export type SkillView = {
  skill_id: string;
  name: string;
  description: string;
  queries: string[];
  content: string;
  status: "candidate" | "shadow" | "active" | "deprecated" | "demoted";
  version: number;
  source_canonical_hash: string;
  review_flags: string[];
  readiness: { ready: boolean; observations: number; reasons: string[] };
  imported_folder: { name: string } | null;
  demotion_reason: string | null;
};

export type ProcedureRecord = {
  scope: { tenant: string; agent: string; environment: string };
  proposal: { id: string; policy: { qualification_trials: number; evaluator_id: string; evaluation_contract: string } };
  state: "candidate" | "active" | "rejected" | "suspended";
};

export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly adminKey: string,
    private readonly evaluatorKey: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown, opts: { key?: string; contentType?: string; ok?: number[] } = {}): Promise<{ status: number; body: T }> {
    const raw = typeof body === "string";
    const r = await fetch(this.baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${opts.key ?? this.adminKey}`,
        ...(body !== undefined ? { "content-type": opts.contentType ?? "application/json" } : {}),
      },
      body: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
    });
    const text = await r.text();
    const ok = opts.ok ?? [200, 201];
    if (!ok.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
  }

  skills(agentId: string): Promise<SkillView[]> {
    return this.call<{ skills: SkillView[] }>("GET", `/api/v1/agents/${agentId}/skills?limit=500`).then((r) => r.body.skills);
  }

  promotionCycle(agentId: string) {
    return this.call("POST", `/api/v1/agents/${agentId}/promotion-cycles`);
  }

  importSkill(agentId: string, skillMd: string) {
    return this.call<{ created: { skill_id: string }[]; refused: { reasons: string[] }[] }>("POST", `/api/v1/agents/${agentId}/skills/import`, skillMd, {
      contentType: "text/markdown",
    });
  }

  /** 409 (not activatable: retired meanwhile, qualification not active) is an answer, not an error. */
  activate(skillId: string, reason: string) {
    return this.call("POST", `/api/v1/skills/${skillId}/activate`, { reason }, { ok: [200, 409] });
  }

  startQualification(skillId: string, model: string, reason: string) {
    return this.call<ProcedureRecord>("POST", `/api/v1/skills/${skillId}/qualification`, { model, reason });
  }

  procedure(record: ProcedureRecord) {
    const { tenant, agent, environment } = record.scope;
    const q = new URLSearchParams({ tenant, agent, environment });
    return this.call<ProcedureRecord>("GET", `/api/v1/ledger/procedures/${encodeURIComponent(record.proposal.id)}?${q}`).then((r) => r.body);
  }

  /** One paired evaluation, with the evaluator's key. */
  evaluate(record: ProcedureRecord, e: { case_id: string; phase: "qualification" | "monitoring"; baseline: number; candidate: number }) {
    return this.call<{ receipt: { state_after: ProcedureRecord["state"] } }>(
      "POST",
      `/api/v1/ledger/procedures/${encodeURIComponent(record.proposal.id)}/evaluations`,
      {
        scope: record.scope,
        case_id: e.case_id,
        phase: e.phase,
        evaluator_id: record.proposal.policy.evaluator_id,
        evaluation_contract: record.proposal.policy.evaluation_contract,
        evidence_ref: `proving-ground:${e.case_id}`,
        baseline_utility: e.baseline,
        candidate_utility: e.candidate,
        candidate_cost_units: 1,
        candidate_latency_ms: 100,
      },
      { key: this.evaluatorKey, ok: [200, 201, 409] },
    ).then((r) => r.body);
  }
}
