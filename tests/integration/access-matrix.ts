// The access matrix's expectations, written out: for every agent operation, console route,
// server action and console page, what each kind of caller gets. Nothing here is computed from
// the policy under test (ACCESS, denial(), the contract's reach declarations): a change of who may
// do what changes a cell here, in the same commit. access-matrix.test.ts probes every cell on the
// built console and fails on any route, action or page missing here, on any entry here that no
// longer exists, and on any cell that differs.
import type { Scope } from "../../lib/auth/access";

/**
 * The callers, one column each: no credentials; a well-formed unknown key; a revoked key; an
 * expired key; an unbound `ingest` key; the bootstrap key (PROCTOR_API_KEY: ingest, admin and
 * ledger:propose); an ingest + admin key bound to another agent ("some-other-agent"); a VIEWER
 * session; an ADMIN session; and on a PROCTOR_READ_ONLY=1 instance, the bootstrap key for the agent
 * API and the admin's session for the console.
 */
export const PRINCIPALS = [
  "anonymous",
  "garbageKey",
  "revokedKey",
  "expiredKey",
  "ingestKey",
  "adminKey",
  "otherAgentKey",
  "viewer",
  "admin",
  "readOnly",
] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * What a caller gets. ok: past every access check (any answer below 500 but 401 and 403: the
 * probe's input may still be refused, its entity missing). 401 and 403: refused with problem+json
 * (a server action: "unauthorized" and "forbidden"). RO: the read-only refusal (403). 404: a record
 * that exists, addressed by its id, answered as a missing one (a key bound to another agent).
 * login: a page view sent to /login?next=….
 */
export type Expected = "ok" | 401 | 403 | "read-only" | 404 | "login";
const ok = "ok";
const RO = "read-only";
const login = "login";

/** One cell per caller, in PRINCIPALS' order (the column heads below abbreviate them). */
export type Row = readonly [anonymous: Expected, garbageKey: Expected, revokedKey: Expected, expiredKey: Expected, ingestKey: Expected, adminKey: Expected, otherAgentKey: Expected, viewer: Expected, admin: Expected, readOnly: Expected];

/**
 * Agent API operations (operationIds of lib/api/v1/contract.ts). The probe's agent is never the
 * other-agent key's: naming it in the path or query is a 403. The operations on a skill, a run or
 * an experiment by its id are probed on records of a third agent that exist on the main server
 * (none on the read-only one): there the other-agent key gets 404.
 */
export const AGENT_MATRIX: Record<string, Row> = {
  //                           anon   garb   revk   expd  ingst   admK  other   view   admS    r-o
  getHealth:                 [   ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok],
  getOpenApi:                [   ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok],
  putAgent:                  [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  deleteAgent:               [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  getAgent:                  [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  ingestWorkflow:            [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    RO],
  ingestWorkflowBatch:       [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    RO],
  exportOtlpTraces:          [  401,   401,   401,   401,    ok,    ok,    ok,   401,   401,    RO],
  searchWorkflows:           [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  exportWorkflows:           [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    ok],
  getWorkflow:               [  401,   401,   401,   401,    ok,    ok,   404,    ok,    ok,    ok],
  listClasses:               [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  runPromotionCycle:         [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  listPromotionCycles:       [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  distillClass:              [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  listSkills:                [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  exportSkills:              [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  importSkills:              [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  getSkill:                  [  401,   401,   401,   401,    ok,    ok,   404,    ok,    ok,    ok],
  activateSkill:             [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  demoteSkill:               [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  rejectSkill:               [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  startSkillQualification:   [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  getSkillReadiness:         [  401,   401,   401,   401,    ok,    ok,   404,    ok,    ok,    ok],
  assembleContext:           [  401,   401,   401,   401,    ok,    ok,   403,   401,   401,    ok],
  ingestConversation:        [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    RO],
  getApprovedPersona:        [  401,   401,   401,   401,    ok,    ok,   403,   401,   401,    ok],
  forgetAccount:             [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  proposeProcedure:          [  401,   401,   401,   401,   403,    ok,   403,   401,   401,    RO],
  getProcedure:              [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    ok],
  recordEvaluation:          [  401,   401,   401,   401,   403,   403,   403,   401,   401,   403],
  getEvaluation:             [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    ok],
  selectProcedure:           [  401,   401,   401,   401,    ok,    ok,   403,   403,    ok,    ok],
  createExperiment:          [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  getExperiment:             [  401,   401,   401,   401,    ok,    ok,   404,    ok,    ok,    ok],
  getExperimentReport:       [  401,   401,   401,   401,    ok,    ok,   404,    ok,    ok,    ok],
  listExperimentAssignments: [  401,   401,   401,   401,    ok,    ok,   404,   403,   403,    RO],
  experimentContext:         [  401,   401,   401,   401,    ok,    ok,   404,   403,   403,    RO],
  reportExperimentRun:       [  401,   401,   401,   401,    ok,    ok,   404,   403,   403,    RO],
  completeExperiment:        [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  cancelExperiment:          [  401,   401,   401,   401,   403,    ok,   404,   403,    ok,    RO],
  listWebhookEndpoints:      [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    ok],
  createWebhookEndpoint:     [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  updateWebhookEndpoint:     [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  rotateWebhookSecret:       [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  deleteWebhookEndpoint:     [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  listWebhookDeliveries:     [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    ok],
  listJobs:                  [  401,   401,   401,   401,    ok,    ok,   403,    ok,    ok,    ok],
  retryJob:                  [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
  dismissJob:                [  401,   401,   401,   401,   403,    ok,   403,   403,    ok,    RO],
};

/** The scope each agent operation must declare (a change of scope shows here even where no cell changes). */
export const AGENT_OPERATIONS: Partial<Record<Scope | "public", string[]>> = {
  public: ["getHealth", "getOpenApi"],
  "learning:read": ["getAgent", "searchWorkflows", "getWorkflow", "listClasses", "listPromotionCycles", "listSkills", "getSkill", "getSkillReadiness", "exportSkills", "listJobs"],
  "learning:write": ["putAgent", "deleteAgent", "runPromotionCycle", "distillClass", "activateSkill", "demoteSkill", "rejectSkill", "startSkillQualification", "importSkills", "retryJob", "dismissJob"],
  "runs:write": ["ingestWorkflow", "ingestWorkflowBatch", "ingestConversation", "exportOtlpTraces"],
  "runs:export": ["exportWorkflows"],
  "ledger:propose": ["proposeProcedure"],
  "ledger:evaluate": ["recordEvaluation"],
  "context:read": ["assembleContext", "getApprovedPersona"],
  "ledger:read": ["getProcedure", "getEvaluation", "selectProcedure"],
  "accounts:forget": ["forgetAccount"],
  "experiments:read": ["getExperiment", "getExperimentReport"],
  "experiments:run": ["listExperimentAssignments", "experimentContext", "reportExperimentRun"],
  "experiments:manage": ["createExperiment", "completeExperiment", "cancelExperiment"],
  "webhooks:read": ["listWebhookEndpoints", "listWebhookDeliveries"],
  "webhooks:manage": ["createWebhookEndpoint", "updateWebhookEndpoint", "rotateWebhookSecret", "deleteWebhookEndpoint"],
};

/**
 * Route handlers outside the agent contract ("METHOD /path" as under app/): console sessions only.
 * The benchmarks' floor is served only when started with PROCTOR_BENCH_FLOOR=1: 404 to everyone
 * who may send a body.
 */
export const CONSOLE_ROUTES: Record<string, Row> = {
  //                                                       anon   garb   revk   expd  ingst   admK  other   view   admS    r-o
  "GET /api/console/api-keys":                           [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "GET /api/console/audit":                              [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "GET /api/console/audit/export":                       [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "GET /api/console/inbox":                              [  401,   401,   401,   401,   401,   401,   401,    ok,    ok,    ok],
  "GET /api/console/experiments/{experiment_id}/export": [  401,   401,   401,   401,   401,   401,   401,    ok,    ok,    ok],
  "GET /api/console/users":                              [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "GET /persona-evolution/state":                        [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "POST /persona-evolution/action":                      [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "GET /api/auth/{nextauth}":                            [   ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok,    ok],
  "POST /api/v1/bench/floor":                            [  401,   404,   404,   404,   404,   404,   404,   404,   404,   404],
};

/** Route handlers the matrix does not probe, and where they are tested instead. */
export const UNPROBED_ROUTES: Record<string, string> = {
  "POST /api/auth/{nextauth}": "next-auth's own sign-in and sign-out forms (tests/integration/auth.test.ts)",
};

/** Server actions ("lib/actions/<file>#<export>"): console sessions only. */
export const ACTION_MATRIX: Record<string, Row> = {
  //                                                 anon   garb   revk   expd  ingst   admK  other   view   admS    r-o
  "lib/actions/api-keys.ts#createApiKey":          [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/api-keys.ts#revokeApiKey":          [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/api-keys.ts#rotateApiKey":          [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/users.ts#createUser":               [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/users.ts#updateUser":               [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/users.ts#signOutEverywhere":        [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/users.ts#resetPassword":            [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/own-account.ts#changeOwnPassword":  [  401,   401,   401,   401,   401,   401,   401,    ok,    ok,    RO],
  "lib/actions/learning.ts#deleteAgent":           [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/learning.ts#distillClass":          [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/learning.ts#runPromotionCycle":     [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/learning.ts#saveLearningSettings":  [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/jobs.ts#retryDeadJobs":             [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/jobs.ts#dismissDeadJobs":           [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/skills.ts#activateSkill":           [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/skills.ts#demoteSkill":             [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/skills.ts#rejectSkill":             [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/skills.ts#decideSkills":            [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/skills.ts#startQualification":      [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/persona.ts#runPersonaAction":       [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    ok],
  "lib/actions/webhooks.ts#createWebhookEndpoint": [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/webhooks.ts#updateWebhookEndpoint": [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/webhooks.ts#rotateWebhookSecret":   [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/webhooks.ts#deleteWebhookEndpoint": [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/webhooks.ts#redeliverWebhook":      [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/webhooks.ts#sendTestWebhookEvent":  [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/accounts.ts#forgetAccount":         [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/experiments.ts#createExperiment":   [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
  "lib/actions/experiments.ts#cancelExperiment":   [  401,   401,   401,   401,   401,   401,   401,   403,    ok,    RO],
};

/** The scope each server action must pass to action(). */
export const ACTIONS: Record<string, Scope> = {
  "lib/actions/api-keys.ts#createApiKey": "apiKeys:manage",
  "lib/actions/api-keys.ts#revokeApiKey": "apiKeys:manage",
  "lib/actions/api-keys.ts#rotateApiKey": "apiKeys:manage",
  "lib/actions/users.ts#createUser": "users:manage",
  "lib/actions/users.ts#updateUser": "users:manage",
  "lib/actions/users.ts#signOutEverywhere": "users:manage",
  "lib/actions/users.ts#resetPassword": "users:manage",
  "lib/actions/own-account.ts#changeOwnPassword": "own:password",
  "lib/actions/learning.ts#deleteAgent": "learning:write",
  "lib/actions/learning.ts#distillClass": "learning:write",
  "lib/actions/learning.ts#runPromotionCycle": "learning:write",
  "lib/actions/learning.ts#saveLearningSettings": "learning:write",
  "lib/actions/jobs.ts#retryDeadJobs": "learning:write",
  "lib/actions/jobs.ts#dismissDeadJobs": "learning:write",
  "lib/actions/skills.ts#activateSkill": "learning:write",
  "lib/actions/skills.ts#demoteSkill": "learning:write",
  "lib/actions/skills.ts#rejectSkill": "learning:write",
  "lib/actions/skills.ts#decideSkills": "learning:write",
  "lib/actions/skills.ts#startQualification": "learning:write",
  "lib/actions/persona.ts#runPersonaAction": "persona:decide",
  "lib/actions/webhooks.ts#createWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#updateWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#rotateWebhookSecret": "webhooks:manage",
  "lib/actions/webhooks.ts#deleteWebhookEndpoint": "webhooks:manage",
  "lib/actions/webhooks.ts#redeliverWebhook": "webhooks:manage",
  "lib/actions/webhooks.ts#sendTestWebhookEvent": "webhooks:manage",
  "lib/actions/accounts.ts#forgetAccount": "accounts:forget",
  "lib/actions/experiments.ts#createExperiment": "experiments:manage",
  "lib/actions/experiments.ts#cancelExperiment": "experiments:manage",
};

/** Console pages (app/(console)): a view without a session is sent to sign in. */
export const PAGE_MATRIX: Record<string, Row> = {
  //                              anon   garb   revk   expd  ingst   admK  other   view   admS    r-o
  "/":                          [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/accounts":                  [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/agents":                    [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/agents/{agentId}":          [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/agents/{agentId}/settings": [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/workflows":                 [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/workflows/runs":            [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/workflows/runs/{id}":       [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/skills":                    [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/traces":                    [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/ledger":                    [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/experiments":               [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/experiments/new":           [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/experiments/{id}":          [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/ledger/procedure":          [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/audit":                     [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/persona-evolution":         [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/settings":                  [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/settings/api-keys":         [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/settings/users":            [login, login, login, login, login, login, login,   403,    ok,    ok],
  "/account":                   [login, login, login, login, login, login, login,    ok,    ok,    ok],
  "/settings/webhooks":         [login, login, login, login, login, login, login,   403,    ok,    ok],
};

/** The servers the matrix runs on: the read-only column on a PROCTOR_READ_ONLY=1 instance. */
export const SERVER_ENV = { PROCTOR_PERSONA_ACTIONS: "1" } as const;
export const READ_ONLY_ENV = { PROCTOR_READ_ONLY: "1", PROCTOR_PERSONA_ACTIONS: "1" } as const;
