// Every audit event Proctor writes, as one zod discriminated union on `type`. The writer
// (`recordAudit`) accepts only these and validates before inserting; the audit page parses
// rows with the same union. Names are `<target>.<past-tense verb>` in snake_case.
//
// Data holds ids, counts, statuses, configuration and reasons typed by admins: never persona
// goals, conversation text, SKILL.md bodies or secrets. Accounts (persona) appear only as the
// keyed pseudonym in the target id.
//
// | type                           | target   | written by                                        |
// |--------------------------------|----------|---------------------------------------------------|
// | user.bootstrapped              | user     | first start: the first admin                      |
// | user.created                   | user     | settings: create a user                           |
// | user.updated                   | user     | settings: change role or active (with reason)     |
// | api_key.bootstrapped           | api_key  | first start: PROCTOR_API_KEY                      |
// | api_key.created                | api_key  | settings: create a key                            |
// | api_key.revoked                | api_key  | settings: revoke a key (with reason)              |
// | api_key.rotated                | api_key  | settings: rotate a key's secret (with reason)     |
// | agent.created / agent.replaced | agent    | PUT /api/v1/agents/{id}, the demo seed            |
// | agent.deletion_started         | agent    | DELETE /api/v1/agents/{id}, the agent page (reason) |
// | agent.deleted                  | agent    | the worker, once the agent's data and row are gone |
// | agent.tools_observed           | agent    | OTLP ingestion: tools a run used, added to the toolbox (or the agent declared) |
// | learning_config.updated        | agent    | agent settings page                               |
// | learning_scope.changed         | agent    | PUT agent, settings page, MemoRizz import: runs regrouped, classes rebuilt |
// | promotion_cycle.ran            | agent    | manual or cadence promotion cycle                 |
// | class.distilled                | agent    | "Distill now" on one class                        |
// | skill.activated                | skill    | review: activate a shadow/candidate skill         |
// | skill.demoted                  | skill    | review: demote an active skill; ledger suspension  |
// | skill.rejected                 | skill    | review: reject a shadow/candidate skill            |
// | skill.deprecated               | skill    | promotion cycle or agent update: a tool it uses was removed |
// | skill_qualification.started    | skill    | ledger: paired-evaluation qualification proposed   |
// | job.retried                    | job      | inbox, agent page, POST /api/v1/jobs/{id}/retry: a dead job queued again |
// | job.dismissed                  | job      | inbox, POST /api/v1/jobs/{id}/dismiss: a dead job deleted (reason) |
// | persona_profile.viewed         | account  | persona page: a profile read                      |
// | persona_reflection.requested   | account  | persona: "Reflect now" or the daily review        |
// | persona_proposal.approved      | account  | persona: approve a suggestion                     |
// | persona_proposal.dismissed     | account  | persona: dismiss a suggestion                     |
// | persona_profile.paused/resumed | account  | persona: pause or resume reflection               |
// | persona_daily_review.enabled/disabled | account | persona: daily review switched on or off  |
// | persona_change.undone          | account  | persona: undo the last applied change             |
// | user.signed_out_everywhere     | user     | settings: end every session of a user (reason)    |
// | user.password_reset            | user     | settings: a generated password (reason)           |
// | user.password_changed          | user     | user menu: the user's own new password (sessions ended) |
// | skill.deviation_flagged        | skill    | ingestion: most activations took another path     |
// | webhook_endpoint.created/updated/deleted | webhook | settings: webhook endpoints (no secret, URL without query) |
// | webhook_endpoint.secret_rotated | webhook | settings: a new signing secret (never the secret)  |
// | webhook_delivery.redelivered   | webhook  | settings: send one delivery again                 |
// | webhook_endpoint.test_sent     | webhook  | settings: a test message sent to one endpoint     |
// | skills.imported                | agent    | Agent Skills import (zip or one SKILL.md)         |
// | memorizz.imported              | agent    | npm run import:memorizz: one row per agent        |
// | account.forgotten              | account  | DELETE /api/v1/accounts/{id}, persona page: forget (counts, reason) |
// | experiment.created             | experiment | POST /api/v1/agents/{id}/experiments, the console: arms, counts (no case text) |
// | experiment.completed           | experiment | completion: the seed's checks and what went into the ledger |
// | experiment.cancelled           | experiment | cancellation (reason)                            |
import { z } from "zod";

export const AUDIT_TARGET_TYPES = ["user", "api_key", "agent", "skill", "job", "account", "webhook", "experiment"] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

const id = z.string().min(1).max(256);
const reason = z.string().max(2000);
const ids = z.array(id);
const role = z.enum(["ADMIN", "VIEWER"]);

/** A dead job as audited: never its payload or error message (both may hold private text). attempts and error_class are null on retries recorded before they were kept. */
const deadJob = { kind: z.string(), agent_id: id.nullable(), attempts: z.number().int().nullable(), error_class: z.string().nullable() };

/** One event type: its name, the kind of thing it is about, and its data (no other keys). */
function event<T extends string, K extends AuditTargetType, D extends z.ZodRawShape>(type: T, target: K, data: D) {
  return z.strictObject({
    type: z.literal(type),
    target: z.strictObject({ type: z.literal(target), id }),
    data: z.strictObject(data),
  });
}

const agentData = {
  name: z.string(),
  tools: z.array(z.string()),
  learning: z.record(z.string(), z.json()),
  outcome_rule: z.json().nullable(),
};

/** What a promotion cycle (or "Distill now") did: the ids it touched and how many it left. */
const cycleOutcome = {
  report_id: id,
  promoted: ids,
  deprecated: ids,
  /** Canonical hashes of the classes whose drafts were rejected. */
  rejected: ids,
  /** Of those, the classes whose distillation answered INSUFFICIENT, with the reason (counts and thresholds, never request text). */
  insufficient: z.array(z.strictObject({ canonical_hash: id, reason })).optional(),
  skipped: z.number().int().min(0),
  deferred: z.number().int().min(0),
};

/** A webhook endpoint as audit rows name it: the URL without credentials or query, never the secret. */
const webhookEndpoint = { url: z.string(), events: z.array(z.string()), enabled: z.boolean() };
const count = z.number().int().min(0);

const personaRevision = { revision: z.number().int().min(0) };
const personaDecision = { ...personaRevision, proposal_id: id };

export const auditEventSchema = z.discriminatedUnion("type", [
  event("user.bootstrapped", "user", {}),
  event("user.created", "user", { email: z.string(), role, password_generated: z.boolean() }),
  event("user.updated", "user", { role_before: role, role_after: role, active_before: z.boolean(), active_after: z.boolean(), reason }),
  event("api_key.bootstrapped", "api_key", {}),
  event("api_key.created", "api_key", {
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    // Bindings and expiry: optional, since rows written before keys had them lack them.
    tenant: z.string().nullable().optional(),
    agents: z.array(z.string()).optional(),
    evaluator_id: z.string().nullable().optional(),
    expires_at: z.string().nullable().optional(),
  }),
  event("api_key.revoked", "api_key", { reason }),
  event("api_key.rotated", "api_key", { prefix: z.string(), previous_valid_until: z.string(), reason }),
  event("agent.created", "agent", agentData),
  event("agent.replaced", "agent", agentData),
  event("agent.deletion_started", "agent", { include_ledger: z.boolean(), reason: reason.nullable() }),
  event("agent.deleted", "agent", {
    include_ledger: z.boolean(),
    /** Rows deleted by table (audit rows are never deleted). */
    rows: z.record(z.string(), z.number().int().min(0)),
    batches: z.number().int().min(0),
    longest_batch_ms: z.number().int().min(0),
  }),
  /** OTLP ingestion (PROCTOR_OTLP_AUTO_AGENTS): tools runs used that the toolbox lacked, now in it. */
  event("agent.tools_observed", "agent", { tools: z.array(z.string()), source: z.literal("otlp") }),
  event("learning_config.updated", "agent", { changed: z.record(z.string(), z.strictObject({ from: z.json(), to: z.json() })) }),
  event("learning_scope.changed", "agent", {
    from: z.enum(["agent", "user"]),
    to: z.enum(["agent", "user"]),
    /** Runs moved to another user scope, and the classes rebuilt from their runs. */
    runs_rescoped: z.number().int().min(0),
    classes_rebuilt: z.number().int().min(0),
    trigger: z.enum(["agent_update", "settings", "memorizz_import"]),
  }),
  event("promotion_cycle.ran", "agent", { ...cycleOutcome, trigger: z.enum(["manual", "cadence"]) }),
  event("class.distilled", "agent", { ...cycleOutcome, canonical_hash: id }),
  event("skill.activated", "skill", {
    agent_id: id,
    version: z.number().int(),
    injection_role: z.enum(["user", "developer"]),
    reason: reason.nullable(),
    /** An imported skill's script files the admin confirmed having read (paths inside its folder). */
    confirmed_scripts: z.array(z.string().max(300)).max(200).optional(),
  }),
  event("skill.demoted", "skill", { agent_id: id, version: z.number().int(), reason }),
  event("skill.rejected", "skill", { agent_id: id, version: z.number().int(), reason }),
  event("skill.deprecated", "skill", { agent_id: id, reason, trigger: z.enum(["manual", "cadence", "distill", "agent_update"]) }),
  event("skill_qualification.started", "skill", {
    agent_id: id,
    procedure_id: id,
    scope: z.strictObject({ tenant: z.string(), agent: z.string(), environment: z.string() }),
    model: z.string(),
    task: z.string(),
    baseline_revision: z.string(),
    policy: z.record(z.string(), z.union([z.string(), z.number()])),
    reason,
  }),
  event("job.retried", "job", { ...deadJob, reason: reason.optional() }),
  event("job.dismissed", "job", { ...deadJob, reason }),
  event("persona_profile.viewed", "account", {}),
  event("persona_reflection.requested", "account", { trigger: z.enum(["manual", "daily"]) }),
  event("persona_proposal.approved", "account", personaDecision),
  event("persona_proposal.dismissed", "account", personaDecision),
  event("persona_profile.paused", "account", personaRevision),
  event("persona_profile.resumed", "account", personaRevision),
  event("persona_daily_review.enabled", "account", personaRevision),
  event("persona_daily_review.disabled", "account", personaRevision),
  event("persona_change.undone", "account", personaRevision),
  event("user.signed_out_everywhere", "user", { reason }),
  event("user.password_reset", "user", { reason }),
  event("user.password_changed", "user", { other_sessions_ended: z.number().int().min(0) }),
  event("skill.deviation_flagged", "skill", {
    agent_id: id,
    activations: z.number().int().min(0),
    deviations: z.number().int().min(0),
    reason,
  }),
  event("webhook_endpoint.created", "webhook", webhookEndpoint),
  event("webhook_endpoint.updated", "webhook", webhookEndpoint),
  event("webhook_endpoint.deleted", "webhook", { url: z.string() }),
  event("webhook_endpoint.secret_rotated", "webhook", {}),
  event("webhook_delivery.redelivered", "webhook", { delivery_id: id, event: z.string() }),
  event("webhook_endpoint.test_sent", "webhook", { delivery_id: id }),
  event("skills.imported", "agent", {
    format: z.enum(["zip", "markdown"]),
    created: ids,
    /** The stored skills the same text already was. */
    duplicates: ids,
    refused: z.number().int().min(0),
    /** Files in skill folders left out: 0 since folders are kept whole (older rows counted the files besides SKILL.md). */
    ignored: z.number().int().min(0),
    /** Files kept with the created skills, SKILL.md included, and how many of them are scripts. */
    files: z.number().int().min(0).optional(),
    scripts: z.number().int().min(0).optional(),
  }),
  event("memorizz.imported", "agent", {
    workflows: z.number().int().min(0),
    skills: ids,
    /** Documents already imported (same ids), skipped. */
    already_imported: z.number().int().min(0),
  }),
  event("account.forgotten", "account", {
    runs_forgotten: count,
    messages_deleted: count,
    persona_versions_deleted: count,
    proposals_deleted: count,
    reviews_deleted: count,
    skills_cleared: count,
    reason: reason.nullable(),
  }),
  event("experiment.created", "experiment", {
    agent_id: id,
    skill_id: id,
    skill_version: z.number().int(),
    name: z.string(),
    model: z.string(),
    repetitions: count,
    arms: z.array(z.strictObject({ name: z.string(), mode: z.string(), n: count.optional() })),
    baseline_arm: z.string(),
    cases: count,
    bootstrap_seed: count,
  }),
  event("experiment.completed", "experiment", {
    agent_id: id,
    skill_id: id,
    runs: count,
    checks: z.record(z.string(), z.enum(["pass", "fail", "pending"])),
    /** The ledger procedure the skill arms' paired evaluations went to, or why none did. */
    ledger: z.strictObject({
      procedure_id: z.string().nullable(),
      recorded: count,
      /** Pairs not sent: the ledger already counted their case content and arm (absent on older rows). */
      already_counted: count.optional(),
      skipped: z.string().nullable(),
    }),
    reason: reason.nullable(),
  }),
  event("experiment.cancelled", "experiment", { agent_id: id, skill_id: id, reported: count, reason: reason.nullable() }),
]);

export type AuditEvent = z.input<typeof auditEventSchema>;
export type AuditEventType = AuditEvent["type"];

/** Every event type, in the order above: the audit page's action filter. */
export const AUDIT_EVENT_TYPES = auditEventSchema.options.map((o) => o.shape.type.value) as AuditEventType[];

/** A stored row as an event, or null when it matches no current type (a legacy or foreign row). */
export function parseAuditEvent(row: { action: string; targetType: string | null; targetId: string | null; details: unknown }): AuditEvent | null {
  const parsed = auditEventSchema.safeParse({ type: row.action, target: { type: row.targetType, id: row.targetId }, data: row.details });
  return parsed.success ? parsed.data : null;
}
