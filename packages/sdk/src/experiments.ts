// proctor.experiments: the agent's side of an experiment. Proctor owns the cases,
// the arms and each arm's context; the agent owns its tools and model. `run` pulls the
// assignments not yet reported, asks each one's context with its arm, hands it to the agent's
// handler and reports the run with its timings, until none is left. It keeps the assignments'
// order, in which each case's arms come in a seeded counterbalanced order (each arm first
// equally often), so order effects such as a warm-up do not favour one arm.
import type { Client } from "openapi-fetch";
import type { paths } from "./openapi.js";
import type { ExperimentContext, ExperimentCreate, Experiment, ExperimentReport, ExperimentCompletion, ExperimentRunReport } from "./types.js";

/** What the handler gets: the case's request and the arm's messages, ready for the model. */
export type ExperimentTask = {
  caseId: string;
  arm: string;
  mode: string;
  repetition: number;
  request: string;
  userId: string | null;
  messages: ExperimentContext["messages"];
  /** anthropic only. */
  system?: string;
  /** gemini only. */
  systemInstruction?: string;
};

/** What the handler returns: the run's tool calls, answer and model usage. */
export type ExperimentOutcome = {
  steps: ExperimentRunReport["steps"];
  answer: string | null;
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
  /** Time spent waiting for the provider, summed over the calls. */
  inferenceMs: number;
  /** Default: the handler's own duration, measured here. */
  endToEndMs?: number;
};

export type ExperimentHandler = (task: ExperimentTask) => Promise<ExperimentOutcome>;

export type ExperimentRunSummary = { reported: number; duplicates: number };

type Answer = <T>(r: { data?: T; error?: unknown; response: Response }) => T;

export class Experiments {
  constructor(
    private readonly api: Client<paths>,
    private readonly answered: Answer,
  ) {}

  /** Creates an experiment for a shadow or active skill of the agent. Needs an admin key. */
  async create(agentId: string, body: ExperimentCreate): Promise<Experiment> {
    return this.answered(await this.api.POST("/api/v1/agents/{agent_id}/experiments", { params: { path: { agent_id: agentId } }, body }));
  }

  async get(experimentId: string): Promise<Experiment> {
    return this.answered(await this.api.GET("/api/v1/experiments/{experiment_id}", { params: { path: { experiment_id: experimentId } } }));
  }

  /** The report, recomputed from the stored runs. */
  async report(experimentId: string): Promise<ExperimentReport> {
    return this.answered(await this.api.GET("/api/v1/experiments/{experiment_id}/report", { params: { path: { experiment_id: experimentId } } }));
  }

  /**
   * Completes it: the seed's checks must hold; skill-arm cases go to the ledger once per case
   * content and arm (`ledger.already_counted`: pairs an earlier run of the same cases counted). Needs an admin key.
   */
  async complete(experimentId: string, reason?: string): Promise<ExperimentCompletion> {
    const path = { experiment_id: experimentId };
    return this.answered(await this.api.POST("/api/v1/experiments/{experiment_id}/complete", { params: { path }, body: reason ? { reason } : {} }));
  }

  /** Runs every assignment not yet reported through `handler`, one at a time, in the assignments' (counterbalanced) order. */
  async run(experimentId: string, handler: ExperimentHandler): Promise<ExperimentRunSummary> {
    const path = { experiment_id: experimentId };
    const summary: ExperimentRunSummary = { reported: 0, duplicates: 0 };
    for (;;) {
      const { assignments } = this.answered(await this.api.GET("/api/v1/experiments/{experiment_id}/assignments", { params: { path, query: { limit: 50 } } }));
      if (assignments.length === 0) return summary;
      for (const a of assignments) {
        const ctx = this.answered(
          await this.api.POST("/api/v1/experiments/{experiment_id}/context", { params: { path }, body: { case_id: a.case_id, arm: a.arm, repetition: a.repetition } }),
        );
        const started = performance.now();
        const out = await handler({
          caseId: ctx.case_id,
          arm: ctx.arm,
          mode: ctx.mode,
          repetition: ctx.repetition,
          request: ctx.request,
          userId: ctx.user_id,
          messages: ctx.messages,
          ...(ctx.system !== undefined ? { system: ctx.system } : {}),
          ...(ctx.system_instruction !== undefined ? { systemInstruction: ctx.system_instruction } : {}),
        });
        const endToEndMs = out.endToEndMs ?? Math.round(performance.now() - started);
        const body: ExperimentRunReport = {
          case_id: a.case_id,
          arm: a.arm,
          repetition: a.repetition,
          steps: out.steps,
          answer: out.answer,
          prompt_tokens: out.promptTokens,
          completion_tokens: out.completionTokens,
          llm_calls: out.llmCalls,
          inference_ms: Math.round(out.inferenceMs),
          end_to_end_ms: endToEndMs,
        };
        const result = this.answered(await this.api.POST("/api/v1/experiments/{experiment_id}/runs", { params: { path }, body }));
        if (result.duplicate) summary.duplicates++;
        else summary.reported++;
      }
    }
  }
}
