// Response shapes of the learning engine's and the persona API, for the OpenAPI document
// (the agent API's openapi.json). The functions that build these responses are typed on their own;
// the checks at the bottom stop compiling when one of them no longer returns what is documented.
import { z } from "zod";
import type { approvedPersona } from "../../persona/reference";
import type { PromotionReportView } from "../../learning/skills/promotion";
import type { agentContext, getSkill, listPromotionReports, listSkills, skillReadiness } from "../../learning/skills/skill-reads";

/** ISO-8601 timestamp in UTC, or null. */
const time = z.string().nullable();
const count = z.number().int();

export const readinessResponse = z.object({
  ready: z.boolean(),
  observations: count,
  trajectory_match_rate: z.number(),
  matched_success_rate: z.number(),
  reasons: z.array(z.string()),
});

/** One shadow evaluation of a run against the skill (lib/learning/shadow/record.ts). */
const shadowEvaluation = z.object({
  idempotency_key: z.string(),
  skill_id: z.string(),
  skill_version: count,
  similarity: z.number(),
  expected_canonical_hash: z.string().nullable(),
  observed_canonical_hash: z.string(),
  trajectory_match: z.boolean(),
  applicability_mismatch: z.boolean(),
  matched_trajectory_succeeded: z.boolean().nullable().describe("null when the trajectory did not match"),
  observed_outcome: z.string(),
  evaluated_at: z.string(),
  evaluator_version: z.string(),
});

export const skillResponse = z.object({
  skill_id: z.string(),
  agent_id: z.string(),
  user_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  preconditions: z.array(z.string()),
  tools: z.array(z.string()),
  queries: z.array(z.string()),
  content: z.string().describe("the SKILL.md"),
  status: z.string().describe("candidate | shadow | active | deprecated | demoted | rejected"),
  version: count,
  injection_role: z.string().describe("user | developer"),
  template_distilled: z.boolean(),
  source_canonical_hash: z.string(),
  source_workflow_ids: z.array(z.string()),
  baseline: z.unknown().describe("{executions, success_rate, window_start, window_end}, frozen at promotion"),
  stats: z.object({
    activations: count,
    successes: count,
    failures: count,
    deviations: count,
    last_activated_at: time,
    recent_outcomes: z.array(z.boolean()),
    shadow: z.object({
      observations: count,
      trajectory_matches: count,
      trajectory_mismatches: count,
      matched_successes: count,
      matched_failures: count,
      last_evaluated_at: time,
      recent_evaluations: z.array(shadowEvaluation).describe("the newest evaluations, oldest first"),
    }),
  }),
  readiness: readinessResponse,
  review_flags: z.array(z.string()),
  created_at: time,
  updated_at: time,
  promoted_at: time,
  demoted_at: time,
  demotion_reason: z.string().nullable(),
  activation_reason: z.string().nullable(),
  imported_folder: z
    .object({ name: z.string(), sha256: z.string().describe("sha256 over the folder's files (their paths and sha256s): the import's identity") })
    .nullable()
    .describe("an imported Agent Skills folder: the folder it came from; null for a distilled skill"),
  files: z
    .array(
      z.object({
        path: z.string().describe("inside the skill folder; SKILL.md included"),
        size: count,
        sha256: z.string(),
        executable: z.boolean().describe("the executable bit it was imported with"),
        script: z.boolean().describe("executable, a script extension (.py .sh .js .ts .rb .pl .ps1 .bat …) or a shebang"),
        text: z.boolean().describe("UTF-8 text (viewable); otherwise binary"),
      }),
    )
    .describe("every file of an imported skill's folder, byte for byte as exported; [] for a distilled skill"),
  scripts: z.array(z.string()).describe("the script files' paths: activation must confirm exactly these (confirm_scripts)"),
  review_warnings: z
    .array(
      z.object({
        kind: z.enum(["format", "tools", "mentions", "size", "scan"]),
        message: z.string(),
        rule: z.string().optional().describe("scan: download-to-shell | credentials | environment-dump | send-to-host | encoded-blob"),
        file: z.string().optional(),
        line: count.optional(),
      }),
    )
    .describe("what the import found and did not refuse: frontmatter outside the specification, allowed-tools this agent does not declare, undeclared names in the body, a SKILL.md over the content cap, the script scan's findings with file and line"),
});

export const skillListResponse = z.object({ skills: z.array(skillResponse) });

const classRef = {
  canonical_hash: z.string(),
  user_id: z.string().nullable(),
  distinct_users: count.optional().describe("distinct accounts among the class's successful runs, as the gates counted them (absent from reports stored before the count existed)"),
};

export const promotionReportResponse = z.object({
  id: z.string(),
  agent_id: z.string(),
  trigger: z.enum(["manual", "cadence", "distill"]),
  distiller: z.enum(["llm", "template"]),
  promoted: z.array(z.string()).describe("skill ids"),
  deprecated: z.array(z.string()).describe("skill ids"),
  rejected: z.array(z.object({ ...classRef, reasons: z.array(z.string()) })),
  skipped: z.array(z.object({ ...classRef, reason: z.string() })),
  deferred: z.array(z.string()),
  review_flags: z.array(z.string()),
  candidates_considered: count,
  learning_scope: z.enum(["agent", "user"]).optional().describe("the agent's learning scope during the cycle (absent from reports stored before it existed)"),
  considered_since: time,
  started_at: z.string(),
  finished_at: z.string(),
});

export const promotionReportListResponse = z.object({ reports: z.array(promotionReportResponse) });

export const contextResponse = z.object({
  skills: z.array(z.object({ skill_id: z.string(), name: z.string(), version: count, injection_role: z.string(), similarity: z.number() })),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  system: z.string().optional().describe("anthropic only: the top-level system prompt"),
  system_instruction: z.string().optional().describe("gemini only: the text of systemInstruction (system and developer contents, in order)"),
  kept_memory_ids: z.array(z.string()),
  dropped_memory_ids: z.array(z.string()),
});

export const approvedPersonaResponse = z.object({
  persona_id: z.string(),
  version: count,
  name: z.string(),
  role: z.string(),
  goals: z.string(),
  revision: count,
  reference: z.object({ resource_type: z.literal("memory"), ref: z.string(), version: z.string(), role: z.literal("persona_style") }),
});

type Returns<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Documents<Actual extends Documented, Documented> = Actual;
export type DocumentedResponses = [
  Documents<Returns<typeof getSkill>, z.output<typeof skillResponse>>,
  Documents<Returns<typeof listSkills>, z.output<typeof skillListResponse>>,
  Documents<Returns<typeof skillReadiness>, z.output<typeof readinessResponse>>,
  Documents<Returns<typeof agentContext>, z.output<typeof contextResponse>>,
  Documents<PromotionReportView, z.output<typeof promotionReportResponse>>,
  Documents<Returns<typeof listPromotionReports>, z.output<typeof promotionReportListResponse>>,
  Documents<NonNullable<Returns<typeof approvedPersona>>, z.output<typeof approvedPersonaResponse>>,
];

/** POST /agents/{agent_id}/skills/import: what became of each file. */
export const skillImportResponse = z.object({
  agent_id: z.string(),
  created: z
    .array(
      z.object({
        file: z.string(),
        skill_id: z.string(),
        name: z.string(),
        files: count.optional().describe("files kept, SKILL.md included"),
        scripts: z.array(z.string()).optional().describe("script files: activation must confirm them"),
        warnings: z.array(z.string()).optional().describe("review warnings, never refusals (tools, undeclared names, the script scan's findings as file:line)"),
      }),
    )
    .describe("new SHADOW skills at user authority"),
  duplicates: z.array(z.object({ file: z.string(), skill_id: z.string() })).describe("the same text is already this stored skill: nothing written"),
  refused: z.array(z.object({ file: z.string(), reasons: z.array(z.string()) })).describe("failed the Agent Skills rules or the validation gate"),
  ignored: z.array(z.string()).describe("files left out: always empty (every file of a skill folder is kept)"),
});
