// Skills meet the ledger: a shadow skill's SKILL.md proposed as a ledger procedure for
// paired-evaluation qualification (skill vs. the agent without it, on the same held-out cases).
// Activation stays an explicit admin decision; the ledger only supplies the causal evidence.
// The admin's start of it is a learning operation (lib/learning/operations/start-skill-qualification).
//
// A suspension of that procedure (monitoring's failure streak reached the policy limit) demotes
// the skill version when it is ACTIVE, in the transaction that suspends the procedure
// (./record-evaluation.ts): the same retirement as an admin's demotion, with its audit row.
//
// Scope: tenant = this deployment (a persisted random id), agent = the agent id, environment
// = a fingerprint of the agent's toolbox and model, so a changed toolbox or model starts over.
// Task = the skill's source trajectory class; baseline and policy = the agent's learning
// configuration (the ledger_* keys of lib/learning/agents/config.ts).
import { createHash, randomUUID } from "node:crypto";
import { Prisma, type Agent, type Skill } from "../db/generated/client";
import type { Db, Tx } from "../db/prisma";
import { recordAudit, systemAuditContext } from "../audit/record";
import { resolveLearningConfig, type LearningConfig } from "../learning/agents/config";
import { retireSkill } from "../learning/skills/lifecycle";
import { LedgerError } from "./errors";
import { proposeProcedure } from "./operations/propose-procedure";
import { getProcedure, procedureRecords } from "./read";
import { ledgerIdSchema, MAX_SOURCE_REFS, parseLedger } from "./schemas";
import { checkLedgerSchema } from "./schema-version";
import type { LedgerPolicy, LedgerScope, ProcedureRecord, ProcedureState } from "./types";

export const DEPLOYMENT_SETTING = "ledger:deployment_id";

/** The id every process of this deployment shares, created on first use. */
async function deploymentId(db: Db | Tx): Promise<string> {
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

/** Whether a procedure id has the form of a skill's (the only ones a suspension demotes). */
export const isSkillProcedureId = (procedureId: string): boolean => procedureId.startsWith("skill:");

/** The reason a suspension gives: the skill's demotion reason, its lifecycle event's and its audit row's. */
export const suspensionReason = (procedureId: string): string =>
  `ledger procedure ${procedureId} was suspended: monitoring failure streak reached the policy limit`;

/** The request id of the audit rows a suspension writes (no request of a person or key caused them). */
export const SUSPENSION_REQUEST_ID = "ledger-suspension";

/**
 * Called in the transaction that moved the procedure from ACTIVE to SUSPENDED (which holds its
 * row lock, so the order is procedure, then skill, as skillQualification's share lock expects).
 * When the procedure is this deployment's procedure of an ACTIVE skill version of the scope's
 * agent, retires that skill (DEMOTED, its runs unstamped, skills_version bumped, a
 * `skill_demoted` event by actor "ledger", which also enqueues the skill.demoted webhook) and
 * writes its `skill.demoted` audit row as the system. Returns the demoted skill's id, or null.
 */
export async function demoteSuspendedSkill(tx: Tx, scope: LedgerScope, procedureId: string): Promise<string | null> {
  if (!isSkillProcedureId(procedureId)) return null;
  const tenant = (await tx.setting.findUnique({ where: { key: DEPLOYMENT_SETTING } }))?.value;
  if (tenant === undefined || scope.tenant !== tenant) return null;
  const skill = await tx.skill.findFirst({
    where: { id: procedureId.split(":")[1], agentId: scope.agent, status: "ACTIVE" },
    select: { id: true, agentId: true, version: true },
  });
  if (!skill || skillProcedureId(skill) !== procedureId) return null;
  const reason = suspensionReason(procedureId);
  if (!(await retireSkill(tx, skill, "DEMOTED", reason, "ledger", ["ACTIVE"]))) return null;
  await recordAudit(tx, systemAuditContext(SUSPENSION_REQUEST_ID), {
    type: "skill.demoted",
    target: { type: "skill", id: skill.id },
    data: { agent_id: skill.agentId, version: skill.version, reason },
  });
  return skill.id;
}

/** Training evidence: the source runs. Evaluations may not reuse these as held-out evidence. */
const workflowRef = (workflowRunId: string): string => `proctor:workflow:${workflowRunId}`;

export type SkillQualificationInput = {
  skill: Pick<Skill, "id" | "agentId" | "status" | "version" | "content" | "sourceCanonicalHash" | "sourceWorkflowIds">;
  agent: Pick<Agent, "id" | "tools" | "learning">;
  /** The model the agent runs on. The agent record does not carry it, so the caller names it. */
  model: string;
};

export async function skillQualificationScope(db: Db | Tx, agent: SkillQualificationInput["agent"], model: string): Promise<LedgerScope> {
  const m = parseLedger(ledgerIdSchema, model, "model", "/model");
  return { tenant: await deploymentId(db), agent: agent.id, environment: environmentFingerprint(agent.tools, m) };
}

function qualificationPolicy(c: LearningConfig): LedgerPolicy {
  return {
    qualification_trials: c.ledger_qualification_trials,
    confidence_delta: c.ledger_confidence_delta,
    min_improvement: c.ledger_min_improvement,
    min_candidate_utility: c.ledger_min_candidate_utility,
    max_cost_units: c.ledger_max_cost_units,
    max_latency_ms: c.ledger_max_latency_ms,
    max_failure_streak: c.ledger_max_failure_streak,
    evaluator_id: c.ledger_evaluator_id,
    evaluation_contract: c.ledger_evaluation_contract,
  };
}

/**
 * Proposes the skill for qualification. When this skill version already has a procedure in
 * this scope, that procedure is returned unchanged (the proposal is immutable, so a baseline or
 * policy edited since applies to the next skill version, toolbox or model).
 */
export async function proposeSkillQualification(
  db: Db | Tx,
  { skill, agent, model }: SkillQualificationInput,
): Promise<{ record: ProcedureRecord; created: boolean }> {
  if (skill.agentId !== agent.id) throw new LedgerError("ValidationError", "The skill belongs to another agent.");
  if (skill.status !== "SHADOW") {
    throw new LedgerError("MemoryOperation", `Paired-evaluation qualification starts from a shadow skill; this skill is ${skill.status.toLowerCase()}.`);
  }
  const scope = await skillQualificationScope(db, agent, model);
  const existing = await getProcedure(db, scope, skillProcedureId(skill));
  if (existing) return { record: existing, created: false };
  const config = resolveLearningConfig(agent.learning);
  const refs = skill.sourceWorkflowIds.slice(0, MAX_SOURCE_REFS).map(workflowRef);
  return proposeProcedure(db, {
    scope,
    id: skillProcedureId(skill),
    task: skill.sourceCanonicalHash,
    baseline_revision: config.ledger_baseline_revision,
    instructions: skill.content,
    source_refs: refs.length ? refs : [`proctor:skill:${skill.id}`],
    policy: qualificationPolicy(config),
  });
}

/** What the skill page and the activation dialog show of a skill's qualification. */
export type SkillQualificationSummary = {
  scope: LedgerScope;
  procedureId: string;
  state: ProcedureState;
  n: number;
  trials: number;
  meanImprovement: number;
  lowerBound: number | null;
  minImprovement: number;
  baselineRevision: string;
  monitoringCount: number;
};

export function qualificationSummary(r: ProcedureRecord): SkillQualificationSummary {
  return {
    scope: r.scope,
    procedureId: r.proposal.id,
    state: r.state,
    n: r.qualification_count,
    trials: r.proposal.policy.qualification_trials,
    meanImprovement: r.mean_improvement,
    lowerBound: r.lower_improvement_bound,
    minImprovement: r.proposal.policy.min_improvement,
    baselineRevision: r.proposal.baseline_revision,
    monitoringCount: r.monitoring_count,
  };
}

/**
 * The skill's most recent qualification in this deployment, whatever toolbox or model it ran
 * under: what the skill page and the activation dialog show (state, n / trials, bound).
 */
export async function skillQualification(db: Db | Tx, skill: Pick<Skill, "id" | "agentId" | "version">, opts: { lock?: boolean } = {}): Promise<ProcedureRecord | null> {
  // Read-only: before the first qualification there is no deployment id and no procedure.
  const tenant = (await db.setting.findUnique({ where: { key: DEPLOYMENT_SETTING } }))?.value;
  if (!tenant) return null;
  await checkLedgerSchema(db);
  const [record] = await procedureRecords(
    db,
    Prisma.sql`p.tenant = ${tenant} AND p.agent = ${skill.agentId} AND p.procedure_id = ${skillProcedureId(skill)}`,
    // lock: share-locked for the caller's transaction, so a suspension (which locks the
    // procedure, then the skill) waits for an activation or is seen by it; never both orders.
    opts.lock ? Prisma.sql`ORDER BY p.created_at DESC LIMIT 1 FOR SHARE OF p` : Prisma.sql`ORDER BY p.created_at DESC LIMIT 1`,
  );
  return record ?? null;
}
