// What experiments take and give on the wire (agent API and console alike). The defaults are
// the seed's three arms: three successful raw workflows, the skill at user authority, the same
// skill at developer authority.
import { z } from "zod";
import { pathId } from "../path-id";
import { textProblem } from "../db/storable-text";
import { ledgerIdSchema } from "../ledger/schemas";
import { PROVIDERS } from "../learning/inject/provider-roles";
import { stepSchema } from "../learning/capture/schemas";
import { ANSWER_MATCHES, ARM_MODES, type Arm } from "./scoring";
import { answerPatternProblem } from "./answer-pattern";

const storable = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((s, ctx) => {
      const problem = textProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

export const ARM_NAME = /^[a-z][a-z0-9_-]{0,39}$/;
export const MAX_RAW_WORKFLOWS = 20;

export const armInput = z
  .object({
    name: z.string().regex(ARM_NAME, "arm names are 1-40 characters of a-z 0-9 _ -, starting with a letter"),
    mode: z.enum(ARM_MODES),
    n: z.number().int().min(1).max(MAX_RAW_WORKFLOWS).optional().describe("raw_workflows only: how many successful raw workflows (default 3)"),
  })
  .strict();

export const DEFAULT_ARMS: Arm[] = [
  { name: "baseline", mode: "raw_workflows", n: 3 },
  { name: "skill_user", mode: "skill_user" },
  { name: "skill_developer", mode: "skill_developer" },
];

/** An expected step: a tool name, or a step whose argument keys (never values) count. */
const expectedStep = z.union([z.string().trim().min(1).max(256), stepSchema]);

export const caseInput = z
  .object({
    case_id: pathId.optional().describe("default: case-1, case-2, … in order"),
    request: storable(20_000).min(1),
    expected_path: z.array(expectedStep).min(1).max(200).optional().describe("the expected tool calls: names, or steps with arguments whose keys count; canonicalised as runs are"),
    expected_answer: storable(20_000).min(1).optional(),
    answer_match: z.enum(ANSWER_MATCHES).default("exact").describe("exact, normalized (case, spaces and one trailing full stop ignored), or regex (expected_answer is the pattern)"),
    user_id: storable(256).min(1).optional(),
  })
  .strict()
  .refine((c) => c.expected_path !== undefined || c.expected_answer !== undefined, "a case needs expected_path, expected_answer or both")
  .superRefine((c, ctx) => {
    const problem = c.answer_match === "regex" && c.expected_answer !== undefined ? answerPatternProblem(c.expected_answer) : null;
    if (problem) ctx.addIssue({ code: "custom", message: `expected_answer ${problem}`, path: ["expected_answer"] });
  });

export const createExperimentBody = z
  .object({
    skill_id: pathId.describe("a SHADOW or ACTIVE skill of this agent"),
    name: z.string().trim().min(1).max(200),
    model: ledgerIdSchema.describe("the model label the agent runs the cases with (also the ledger environment's model)"),
    repetitions: z.number().int().min(1).max(20).default(1),
    arms: z.array(armInput).min(2).max(8).default(DEFAULT_ARMS),
    baseline_arm: z.string().optional().describe("the raw_workflows arm treatments are compared with (default: the first)"),
    provider: z.enum(PROVIDERS).default("openai").describe("the provider mapping of the arms' messages"),
    system_prompt: storable(100_000).default(""),
    bootstrap_seed: z.number().int().min(0).max(2 ** 31 - 1).optional().describe("seed of the bootstrap intervals (default: random, stored)"),
    cases: z.array(caseInput).min(1).max(200),
  })
  .strict();

export const experimentParams = z.object({ experiment_id: pathId });

/** Which assignment's context: the case, the arm and the repetition (1 when the experiment has one). */
export const contextBody = z.object({ case_id: pathId, arm: z.string().min(1).max(40), repetition: z.number().int().min(1).max(20).default(1) }).strict();

export const reportRunBody = z
  .object({
    case_id: pathId,
    arm: z.string().min(1).max(40),
    repetition: z.number().int().min(1).max(20).default(1),
    steps: z.array(stepSchema).max(2000),
    answer: storable(262_144).nullable().default(null),
    prompt_tokens: z.number().int().min(0).max(100_000_000),
    completion_tokens: z.number().int().min(0).max(100_000_000),
    llm_calls: z.number().int().min(0).max(100_000),
    inference_ms: z.number().int().min(0).max(86_400_000),
    end_to_end_ms: z.number().int().min(0).max(86_400_000),
  })
  .strict();

export const assignmentsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

export const finishBody = z.object({ reason: z.string().trim().min(1).max(2000).optional() }).strict();
