// The agent API's answers about experiments, as zod schemas (the OpenAPI document and the
// contract checks read them); the type checks at the end keep them equal to what lib returns.
import { z } from "zod";
import type { nextAssignments } from "./assignments";
import type { ExperimentView } from "./experiments";
import type { cancelExperiment, completeExperiment, reportExperimentRun, serveArmContext } from "./operations";
import type { ExperimentReport } from "./report";
import { METRICS } from "./scoring";

const count = z.number().int().min(0);
const time = z.string();
const arm = z.object({ name: z.string(), mode: z.enum(["raw_workflows", "skill_user", "skill_developer", "none"]), n: count.optional() });

export const experimentResponse = z.object({
  experiment_id: z.string(),
  agent_id: z.string(),
  skill_id: z.string(),
  skill_version: count,
  name: z.string(),
  status: z.enum(["draft", "running", "completed", "cancelled"]),
  model: z.string(),
  repetitions: count,
  arms: z.array(arm),
  baseline_arm: z.string(),
  provider: z.string(),
  bootstrap_seed: count,
  created_by: z.string(),
  created_at: time,
  completed_at: time.nullable(),
  progress: z.object({ expected: count, reported: count }),
});

export const assignmentsResponse = z.object({
  experiment_id: z.string(),
  status: z.enum(["draft", "running", "completed", "cancelled"]),
  remaining: count.describe("assignments not yet reported, in all"),
  assignments: z.array(z.object({ case_id: z.string(), arm: z.string(), mode: z.string(), repetition: count, request: z.string(), user_id: z.string().nullable() })),
});

export const armContextResponse = z.object({
  experiment_id: z.string(),
  case_id: z.string(),
  arm: z.string(),
  mode: z.string(),
  repetition: count,
  request: z.string(),
  user_id: z.string().nullable(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })).describe("the arm's prompt, mapped for the experiment's provider"),
  system: z.string().optional().describe("anthropic only: the top-level system prompt"),
  system_instruction: z.string().optional().describe("gemini only"),
  raw_workflow_ids: z.array(z.string()).describe("the raw workflows in this context (baseline arms only)"),
  developer_message: z.boolean().describe("the skill went in as a developer message (after the provider mapping)"),
  skill_sha256: z.string().nullable().describe("sha256 of the skill body served (skill arms only)"),
});

export const experimentRunResponse = z.object({
  duplicate: z.boolean(),
  run: z.object({
    experiment_id: z.string(),
    case_id: z.string(),
    arm: z.string(),
    repetition: count,
    steps_hash: z.string().nullable(),
    workflow_correct: z.boolean().nullable(),
    answer_correct: z.boolean().nullable(),
    raw_workflow_count: count,
    developer_message: z.boolean(),
    skill_sha256: z.string().nullable(),
    reported_at: time,
  }),
});

const figures = z.object(Object.fromEntries(METRICS.map((m) => [m.key, z.number().nullable()])) as Record<(typeof METRICS)[number]["key"], z.ZodNullable<z.ZodNumber>>);
const ledgerOutcome = z.object({
  procedure_id: z.string().nullable(),
  scope: z.object({ tenant: z.string(), agent: z.string(), environment: z.string() }).nullable(),
  recorded: count,
  duplicates: count.describe("pairs the ledger already held identically (a completion delivered again)"),
  already_counted: count.describe("pairs not sent: the ledger already counted their case content and arm (this or another experiment); they add no trials"),
  qualification_count: count.nullable().describe("the procedure's qualification trials after this completion"),
  skipped: z.string().nullable(),
});

export const experimentReportResponse = z.object({
  experiment: experimentResponse.extend({ ledger: ledgerOutcome.nullable() }),
  metrics: z.array(z.object({ key: z.string(), label: z.string(), unit: z.string(), better: z.string() })),
  cases: z.array(
    z.object({
      case_id: z.string(),
      request: z.string(),
      user_id: z.string().nullable(),
      expected_hash: z.string().nullable(),
      expected_tools: z.array(z.string()).nullable(),
      expected_answer: z.string().nullable(),
      answer_match: z.enum(["exact", "normalized", "regex"]),
      arm_order: z.array(z.string()).describe("the arms in the order this case runs them (the assignments' order)"),
    }),
  ),
  rows: z.array(
    z.object({
      case_id: z.string(),
      arm: z.string(),
      reported: count,
      figures: figures.nullable(),
      runs: z.array(
        z.object({
          repetition: count,
          reported_at: time,
          steps_hash: z.string().nullable(),
          tools: z.array(z.string()),
          answer: z.string().nullable(),
          figures,
          raw_workflow_ids: z.array(z.string()),
          developer_message: z.boolean(),
          skill_sha256: z.string().nullable(),
        }),
      ),
    }),
  ),
  aggregates: z.array(z.object({ arm: z.string(), mode: z.string(), reported: count, figures })),
  deltas: z.array(
    z.object({
      arm: z.string(),
      metric: z.string(),
      delta: z.number().nullable(),
      interval: z.object({ low: z.number(), high: z.number() }).nullable().describe("paired bootstrap 95 % interval (bootstrap_seed), null below two pairs"),
      pairs: count,
    }),
  ),
  checks: z.array(z.object({ key: z.string(), label: z.string(), status: z.enum(["pass", "fail", "pending"]), evidence: z.string() })),
  progress: z.object({ expected: count, served: count, reported: count }),
  arm_order: z
    .object({
      counterbalanced: z.boolean().describe("each case runs the arms in a seeded counterbalanced order (false: experiments created before, declared order)"),
      first: z.array(z.object({ arm: z.string(), cases: count })).describe("how many cases each arm goes first in"),
      served: count.describe("(case, repetition) pairs with every arm's context served"),
      followed: count.describe("of those, served in the case's order"),
      statement: z.string(),
    })
    .describe("how the arms were ordered within each case"),
  caveat: z.string(),
});

export const completeResponse = z.object({ report: experimentReportResponse, ledger: ledgerOutcome });

type Returns<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Documents<Actual extends Documented, Documented> = Actual;
export type DocumentedResponses = [
  Documents<ExperimentView, z.output<typeof experimentResponse>>,
  Documents<Returns<typeof nextAssignments>, z.output<typeof assignmentsResponse>>,
  Documents<Returns<typeof serveArmContext>, z.output<typeof armContextResponse>>,
  Documents<Returns<typeof reportExperimentRun>, z.output<typeof experimentRunResponse>>,
  Documents<Omit<ExperimentReport, "experiment" | "metrics">, Omit<z.output<typeof experimentReportResponse>, "experiment" | "metrics">>,
  Documents<Returns<typeof completeExperiment>["ledger"], z.output<typeof ledgerOutcome>>,
  Documents<Returns<typeof cancelExperiment>, z.output<typeof experimentResponse>>,
];
