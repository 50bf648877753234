// A three-arm experiment end to end, offline (seed 000 "Measuring whether skills help"): the
// agent records a few successful refunds, a promotion cycle distills them into a
// shadow skill, and an experiment measures that skill against the raw workflows it came from —
// baseline (three raw workflows), the skill at user authority, the same skill as a developer
// message — on held-out requests. The agent's model is the `openai` client against a loopback
// server that follows what it is given (./model-server.ts); Proctor serves each arm's context,
// scores the runs, checks the seed's assertions and, on completion, records the skill arms'
// paired evaluations in the ledger, once per case content and arm: run again, it adds no trials.
// Each case runs its arms in a seeded counterbalanced order. Prints the report's table, each
// case's arm order and the ledger's counts.
//
//   CONSOLE_URL=http://localhost:3000 PROCTOR_API_KEY=pk_… npm run example:experiment
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { Proctor, type ExperimentReport, type ExperimentTask, type Run } from "@proctor/sdk";
import { startModelServer } from "./model-server";

const AGENT_ID = process.env.AGENT_ID || "experiment-example-shop";
const USER_ID = "acct-experiment";
const MODEL = "loopback-refund-model";
const SEED = Number(process.env.EXPERIMENT_SEED ?? 17);

const TOOLS = [
  { name: "lookup_order", description: "Find an order by its id", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
  { name: "issue_refund", description: "Refund an order", parameters: { type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } } } },
  { name: "send_email", description: "Email the customer about an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
];
const OPENAI_TOOLS: ChatCompletionTool[] = TOOLS.map((t) => ({ type: "function", function: t }));

const TRAINING = ["Refund order A1001", "Please refund my order A1002", "I want my money back for order A1003", "Refund A1004 please", "Can you refund order A1005"];
const HELD_OUT = ["Refund order B2001", "Please give me a refund for B2002", "Money back for order B2003 please", "Refund my order B2004"];

function callTool(tool: string, args: { order_id: string; amount?: number }): Record<string, unknown> {
  if (tool === "lookup_order") return { order_id: args.order_id, status: "paid", amount: 12.5 };
  if (tool === "issue_refund") return { accepted: true, amount: args.amount };
  return { sent: true };
}

/**
 * A successful refund the way the agent first solved them: look the order up, refund it. Sent
 * without an account, so the five runs form one class whatever the agent's learning scope.
 */
function trainingRun(query: string): Run {
  const orderId = /[A-Z]\d{3,}/.exec(query)![0];
  return {
    query,
    steps: [
      { tool: "lookup_order", arguments: { order_id: orderId }, result: callTool("lookup_order", { order_id: orderId }) },
      { tool: "issue_refund", arguments: { order_id: orderId, amount: 12.5 }, result: { accepted: true, amount: 12.5 } },
    ],
    answer: `Refunded order ${orderId}.`,
    outcome: "success",
  };
}

/** The agent: the model's tool-calling loop on the arm's messages, with its usage and timings. */
function agent(openai: OpenAI) {
  return async (task: ExperimentTask) => {
    const messages = task.messages as ChatCompletionMessageParam[];
    const steps: NonNullable<Run["steps"]> = [];
    let promptTokens = 0, completionTokens = 0, llmCalls = 0, inferenceMs = 0;
    for (let turn = 0; turn < 8; turn++) {
      const started = performance.now();
      const completion = await openai.chat.completions.create({ model: MODEL, messages, tools: OPENAI_TOOLS });
      inferenceMs += performance.now() - started;
      llmCalls++;
      promptTokens += completion.usage?.prompt_tokens ?? 0;
      completionTokens += completion.usage?.completion_tokens ?? 0;
      const message = completion.choices[0].message;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
      if (calls.length === 0) return { steps, answer: message.content ?? null, promptTokens, completionTokens, llmCalls, inferenceMs };
      messages.push({ role: "assistant", content: null, tool_calls: calls });
      for (const call of calls) {
        const args = JSON.parse(call.function.arguments) as { order_id: string; amount?: number };
        const result = callTool(call.function.name, args);
        steps.push({ tool: call.function.name, arguments: args, result });
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
      }
    }
    return { steps, answer: null, promptTokens, completionTokens, llmCalls, inferenceMs };
  };
}

async function admin(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown) {
  const r = await fetch(baseUrl + path, { method, headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

const fmt = (v: number | null | undefined, unit: string) => (v === null || v === undefined ? "—" : unit === "rate" ? `${(v * 100).toFixed(0)}%` : v.toFixed(unit === "ms" ? 1 : 0));
const signed = (v: number, unit: string) => (v >= 0 ? "+" : "") + (unit === "rate" ? `${(v * 100).toFixed(0)}pp` : v.toFixed(1));

/** The report's table: one row per metric, one column per arm, then each treatment's delta and interval. */
function reportTable(report: ExperimentReport): string {
  const arms = report.aggregates.map((a) => a.arm);
  const treatments = arms.filter((a) => a !== report.experiment.baseline_arm);
  const lines = [["metric", ...arms, ...treatments.map((t) => `Δ ${t} [95% CI]`)].join(" | ")];
  for (const m of report.metrics) {
    const cells = report.aggregates.map((a) => fmt(a.figures[m.key as keyof typeof a.figures], m.unit));
    const deltas = treatments.map((t) => {
      const d = report.deltas.find((x) => x.arm === t && x.metric === m.key);
      if (!d || d.delta === null) return "—";
      return `${signed(d.delta, m.unit)}${d.interval ? ` [${signed(d.interval.low, m.unit)}, ${signed(d.interval.high, m.unit)}]` : ""}`;
    });
    lines.push([m.label, ...cells, ...deltas].join(" | "));
  }
  return lines.join("\n");
}

async function main() {
  const baseUrl = process.env.CONSOLE_URL;
  const apiKey = process.env.PROCTOR_API_KEY;
  if (!baseUrl || !apiKey) {
    console.error("Set CONSOLE_URL (e.g. http://localhost:3000) and PROCTOR_API_KEY (a key with ingest and admin scopes).");
    process.exit(2);
  }
  const model = await startModelServer();
  try {
    const proctor = new Proctor({ baseUrl, apiKey, flushIntervalMs: 0 });
    await proctor.declareAgent(AGENT_ID, { name: "Experiment example shop", tools: TOOLS, learning: { promotion_every_n_runs: 0, require_shadow: true } });
    for (const q of TRAINING) proctor.recordRun(AGENT_ID, trainingRun(q));
    await proctor.flush();
    await admin(baseUrl, apiKey, "POST", `/api/v1/agents/${AGENT_ID}/promotion-cycles`);
    const { skills } = await admin(baseUrl, apiKey, "GET", `/api/v1/agents/${AGENT_ID}/skills?status=shadow`);
    if (!skills.length) throw new Error("the promotion cycle distilled no shadow skill");

    const created = await proctor.experiments.create(AGENT_ID, {
      skill_id: skills[0].skill_id,
      name: "Refund skill: raw workflows vs user vs developer authority",
      model: MODEL,
      bootstrap_seed: SEED,
      cases: HELD_OUT.map((request) => {
        const orderId = /[A-Z]\d{3,}/.exec(request)![0];
        return {
          request,
          user_id: USER_ID,
          expected_path: [
            { tool: "lookup_order", arguments: { order_id: orderId } },
            { tool: "issue_refund", arguments: { order_id: orderId, amount: 12.5 } },
          ],
          expected_answer: `Refunded order ${orderId}.`,
          answer_match: "normalized" as const,
        };
      }),
    });
    const openai = new OpenAI({ baseURL: model.baseUrl, apiKey: "loopback" });
    const ran = await proctor.experiments.run(created.experiment_id, agent(openai));
    const { report, ledger } = await proctor.experiments.complete(created.experiment_id, "example run");

    console.log(`experiment ${report.experiment.experiment_id} (${report.experiment.status}): ${report.cases.length} cases × ${report.aggregates.length} arms, ${ran.reported} runs reported`);
    console.log(reportTable(report));
    for (const c of report.checks) console.log(`check ${c.status.toUpperCase()}: ${c.label} — ${c.evidence}`);
    console.log(`arm order: ${report.cases.map((c) => `${c.case_id} ${c.arm_order.join(" > ")}`).join(" | ")}`);
    console.log(report.arm_order.statement);
    console.log(
      ledger.procedure_id
        ? `ledger: ${ledger.recorded} paired evaluations recorded, ${ledger.already_counted} already counted (same case content and arm), to ${ledger.procedure_id}; qualification_count ${ledger.qualification_count}`
        : `ledger: nothing recorded (${ledger.skipped})`,
    );
    console.log(report.caveat);
    if (report.checks.some((c) => c.status !== "pass")) process.exitCode = 1;
  } finally {
    await model.close();
  }
}

await main().catch((e: Error) => {
  console.error(e.message);
  process.exitCode = 1;
});
