import createClient, { type Client } from "openapi-fetch";
import { ProctorError } from "./errors.js";
import { Experiments } from "./experiments.js";
import type { paths } from "./openapi.js";
import { retryingFetch } from "./retry.js";
import { RunBuffer, type FlushReport } from "./runs.js";
import { contextRequest, skillsContext, type SkillsContext, type SkillsRequest } from "./skills.js";
import type { Agent, AgentDefinition, BatchItemResult, Run } from "./types.js";

export type ProctorOptions = {
  /** The console, e.g. http://localhost:3000. */
  baseUrl: string;
  /** An agent API key (pk_…): `ingest` scope for runs and skills, `admin` for declareAgent. */
  apiKey: string;
  /** Runs per batch request (1–1000, default 100). */
  batchSize?: number;
  /** The longest a recorded run waits before its batch is sent (default 5,000 ms; 0: only on size or flush). */
  flushIntervalMs?: number;
  /** Retries of a request answered 429 or 503, or not answered (default 5). */
  maxRetries?: number;
  /** The first backoff, doubled at each retry (default 500 ms); Retry-After wins when sent. */
  retryBaseDelayMs?: number;
  /** The longest wait between two attempts (default 30,000 ms). */
  maxRetryDelayMs?: number;
  /** Called for each batch of runs that could not be stored; flush() reports them too. */
  onError?: (error: ProctorError, runs: Run[]) => void;
  fetch?: typeof fetch;
};

/** The batch endpoint's limit of runs per request. */
const MAX_BATCH = 1000;

/** Throws the console's refusal as a ProctorError; returns the answer's body otherwise. */
function answered<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (error !== undefined || !response.ok) throw new ProctorError(response.status, error ?? null);
  return data as T;
}

/**
 * A client of one Proctor console. Parts of the agent API join as members built on the same
 * `api` client (`experiments`), so they share its key and retries.
 */
export class Proctor {
  private readonly api: Client<paths>;
  /** Experiments: create, run with a handler, report, complete. */
  readonly experiments: Experiments;
  private readonly runs: RunBuffer;
  private closed = false;

  constructor(options: ProctorOptions) {
    const batchSize = options.batchSize ?? 100;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH}`);
    if (!options.apiKey) throw new TypeError("apiKey is required");
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options.fetch ?? globalThis.fetch, {
        maxRetries: options.maxRetries ?? 5,
        baseDelayMs: options.retryBaseDelayMs ?? 500,
        maxDelayMs: options.maxRetryDelayMs ?? 30_000,
      }),
    });
    this.experiments = new Experiments(this.api, answered);
    this.runs = new RunBuffer((agentId, runs) => this.postBatch(agentId, runs), {
      batchSize,
      flushIntervalMs: options.flushIntervalMs ?? 5_000,
      onError: options.onError,
    });
  }

  /** Creates or replaces the agent (its toolbox, learning configuration, outcome rule). Needs an admin key. */
  async declareAgent(agentId: string, definition: AgentDefinition): Promise<Agent> {
    return answered(await this.api.PUT("/api/v1/agents/{agent_id}", { params: { path: { agent_id: agentId } }, body: definition }));
  }

  /**
   * Queues a run for the next batch and returns its workflow_id. A run without one gets a
   * random id here, so a batch resent after a lost answer is stored once (ingestion is
   * idempotent on workflow_id).
   */
  recordRun(agentId: string, run: Run): string {
    if (this.closed) throw new Error("Proctor: recordRun after shutdown()");
    const workflowId = run.workflow_id ?? crypto.randomUUID();
    this.runs.add(agentId, { ...run, workflow_id: workflowId });
    return workflowId;
  }

  /**
   * The conversation with the agent's ACTIVE skills for this query injected, and their ids to
   * report. The skills considered are the agent-wide ones, which reach every account (`userId` or
   * none), and under learning_scope "user" also those learned from `userId`'s own runs.
   */
  async withSkills(agentId: string, request: SkillsRequest): Promise<SkillsContext> {
    const body = contextRequest(request);
    return skillsContext(answered(await this.api.POST("/api/v1/agents/{agent_id}/context", { params: { path: { agent_id: agentId } }, body })));
  }

  /** Sends the waiting runs now; resolves when every batch so far has been answered. */
  flush(): Promise<FlushReport> {
    return this.runs.flush();
  }

  /** Sends the waiting runs and refuses new ones. */
  shutdown(): Promise<FlushReport> {
    this.closed = true;
    return this.runs.flush();
  }

  private async postBatch(agentId: string, workflows: Run[]): Promise<BatchItemResult[]> {
    const answer = answered(
      await this.api.POST("/api/v1/agents/{agent_id}/workflows/batch", { params: { path: { agent_id: agentId } }, body: { workflows } }),
    );
    return answer.results;
  }
}
