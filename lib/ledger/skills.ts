// Skills meet the ledger: a shadow skill's SKILL.md proposed as a ledger procedure for
// paired-evaluation qualification (skill vs. the agent without it, on the same held-out cases).
// Activation stays an explicit admin decision; the ledger only supplies the causal evidence.
//
// Scope: tenant = this deployment (a persisted random id), agent = the agent id, environment
// = a fingerprint of the agent's toolbox and model, so a changed toolbox or model starts over.
// Task = the skill's source trajectory class; baseline = `no-skill` unless configured.
//
// The agent's learning configuration has no ledger keys yet. Until it does, these optional
// keys are read from it when present (same meaning as the policy fields) and default to:
//   ledger_baseline_revision "no-skill", ledger_qualification_trials 128,
//   ledger_confidence_delta 0.01, ledger_min_improvement 0.05, ledger_min_candidate_utility 0.7,
//   ledger_max_cost_units 10000, ledger_max_latency_ms 60000, ledger_max_failure_streak 3,
//   ledger_evaluator_id "proctor-paired-evaluator", ledger_evaluation_contract "proctor-skill-paired-v1".
import { createHash, randomUUID } from "node:crypto";
import { Prisma, type Agent, type Skill } from "../db/generated/client";
import type { Db } from "../db/prisma";
import { LedgerError } from "./errors";
import { propose } from "./propose";
import { procedureRecords } from "./read";
import { ID_BYTES, ledgerText, MAX_SOURCE_REFS, parseLedger } from "./schemas";
import { ensureLedgerSchema } from "./schema-version";
import type { LedgerScope, ProcedureRecord } from "./types";

export const DEPLOYMENT_SETTING = "ledger:deployment_id";

export const SKILL_QUALIFICATION_DEFAULTS = {
  ledger_baseline_revision: "no-skill",
  ledger_qualification_trials: 128,
  ledger_confidence_delta: 0.01,
  ledger_min_improvement: 0.05,
  ledger_min_candidate_utility: 0.7,
  ledger_max_cost_units: 10_000,
  ledger_max_latency_ms: 60_000,
  ledger_max_failure_streak: 3,
  ledger_evaluator_id: "proctor-paired-evaluator",
  ledger_evaluation_contract: "proctor-skill-paired-v1",
};

type LedgerConfig = typeof SKILL_QUALIFICATION_DEFAULTS;

/** Ledger keys of an agent's stored learning config over the defaults; other keys are not ours. */
export function ledgerConfigOf(learning: unknown): LedgerConfig {
  const stored = learning && typeof learning === "object" ? (learning as Record<string, unknown>) : {};
  const config = { ...SKILL_QUALIFICATION_DEFAULTS } as Record<string, unknown>;
  for (const key of Object.keys(SKILL_QUALIFICATION_DEFAULTS)) if (stored[key] !== undefined) config[key] = stored[key];
  // propose() validates the values; only the baseline is checked here because it is not policy.
  parseLedger(ledgerText(ID_BYTES), config.ledger_baseline_revision, "baseline revision", "/learning/ledger_baseline_revision");
  return config as LedgerConfig;
}

/** The id every process of this deployment shares, created on first use. */
export async function deploymentId(db: Db): Promise<string> {
  await db.setting.createMany({ data: [{ key: DEPLOYMENT_SETTING, value: `deployment-${randomUUID()}` }], skipDuplicates: true });
  return (await db.setting.findUniqueOrThrow({ where: { key: DEPLOYMENT_SETTING } })).value;
}

/** JSON with object keys sorted, so that equal toolboxes hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Toolbox order does not matter (tools resolve by name); anything else about a tool does. */
export function environmentFingerprint(tools: unknown, model: string): string {
  const list = Array.isArray(tools) ? [...tools] : [];
  list.sort((a, b) => {
    const [x, y] = [canonicalJson(a), canonicalJson(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const digest = createHash("sha256").update(canonicalJson({ model, tools: list })).digest("hex");
  return `toolbox-model-sha256:${digest}`;
}

export const skillProcedureId = (skill: Pick<Skill, "id" | "version">): string => `skill:${skill.id}:v${skill.version}`;

/** Training evidence: the source runs. Evaluations may not reuse these as held-out evidence. */
export const workflowRef = (workflowRunId: string): string => `proctor:workflow:${workflowRunId}`;

export type SkillQualificationInput = {
  skill: Pick<Skill, "id" | "agentId" | "status" | "version" | "content" | "sourceCanonicalHash" | "sourceWorkflowIds">;
  agent: Pick<Agent, "id" | "tools" | "learning">;
  /** The model the agent runs on. The agent record does not carry it, so the caller names it. */
  model: string;
};

export async function skillQualificationScope(db: Db, agent: SkillQualificationInput["agent"], model: string): Promise<LedgerScope> {
  const m = parseLedger(ledgerText(ID_BYTES), model, "model", "/model");
  return { tenant: await deploymentId(db), agent: agent.id, environment: environmentFingerprint(agent.tools, m) };
}

/** Proposes the skill for qualification; repeating it returns the same procedure. */
export async function proposeSkillQualification(
  db: Db,
  { skill, agent, model }: SkillQualificationInput,
): Promise<{ record: ProcedureRecord; created: boolean }> {
  if (skill.agentId !== agent.id) throw new LedgerError("ValidationError", "The skill belongs to another agent.");
  if (skill.status !== "SHADOW") {
    throw new LedgerError("MemoryOperation", "Paired-evaluation qualification starts from a shadow skill.");
  }
  const config = ledgerConfigOf(agent.learning);
  const scope = await skillQualificationScope(db, agent, model);
  const refs = skill.sourceWorkflowIds.slice(0, MAX_SOURCE_REFS).map(workflowRef);
  return propose(db, scope, {
    id: skillProcedureId(skill),
    task: skill.sourceCanonicalHash,
    baseline_revision: config.ledger_baseline_revision,
    instructions: skill.content,
    source_refs: refs.length ? refs : [`proctor:skill:${skill.id}`],
    policy: {
      qualification_trials: config.ledger_qualification_trials,
      confidence_delta: config.ledger_confidence_delta,
      min_improvement: config.ledger_min_improvement,
      min_candidate_utility: config.ledger_min_candidate_utility,
      max_cost_units: config.ledger_max_cost_units,
      max_latency_ms: config.ledger_max_latency_ms,
      max_failure_streak: config.ledger_max_failure_streak,
      evaluator_id: config.ledger_evaluator_id,
      evaluation_contract: config.ledger_evaluation_contract,
    },
  });
}

/**
 * The skill's most recent qualification in this deployment, whatever toolbox or model it ran
 * under: what the skill page and the activation dialog show (state, n / trials, bound).
 */
export async function skillQualification(db: Db, skill: Pick<Skill, "id" | "agentId" | "version">): Promise<ProcedureRecord | null> {
  await ensureLedgerSchema(db);
  const [record] = await procedureRecords(
    db,
    Prisma.sql`p.tenant = ${await deploymentId(db)} AND p.agent = ${skill.agentId} AND p.procedure_id = ${skillProcedureId(skill)}`,
    Prisma.sql`ORDER BY p.created_at DESC LIMIT 1`,
  );
  return record ?? null;
}
