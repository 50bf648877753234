// An agent loop instrumented with the Proctor SDK: for each request it asks the console for the
// agent's ACTIVE skills (withSkills), lets the model work through its tools, and records the run
// with the skills it was given (recordRun, sent in batches). The "model" is a deterministic
// local function so that the example runs offline; swap `model()` for a real chat client.
// The requests come from several accounts (user_id): the agent learns from them pooled
// (learning_scope "agent", the default), so what it learns reaches every account, new ones too.
//
//   CONSOLE_URL=http://localhost:3000 PROCTOR_API_KEY=pk_… npm run example:sdk-agent
import { Proctor, type ChatMessage, type Run } from "@proctor/sdk";

const AGENT_ID = process.env.AGENT_ID || "sdk-example-shop";
/** Five accounts, one refund each: together they pass the gates (5 runs, 5 distinct accounts). */
const REQUESTS = [
  { userId: "acct-amara", query: "Refund order A1001" },
  { userId: "acct-bilal", query: "Please refund my order A1002" },
  { userId: "acct-chen", query: "Refund order A1003 please" },
  { userId: "acct-dagny", query: "Please refund order A1004" },
  { userId: "acct-emeka", query: "Refund my order A1005" },
];

const TOOLS = [
  { name: "lookup_order", description: "Find an order by its id", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
  { name: "issue_refund", description: "Refund an order", parameters: { type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } } } },
  { name: "send_email", description: "Email the customer about an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
];

/** The shop the tools act on (in memory). */
function callTool(tool: string, args: { order_id: string; amount?: number }): Record<string, unknown> {
  switch (tool) {
    case "lookup_order":
      return { order_id: args.order_id, status: "paid", amount: 12.5 };
    case "issue_refund":
      return { accepted: true, amount: args.amount };
    case "send_email":
      return { sent: true };
    default:
      throw new Error(`unknown tool ${tool}`);
  }
}

/**
 * Stand-in for the LLM: the next tool to call, or null when done. It follows the numbered
 * "Call `tool`" steps of an injected skill's procedure when it was given one; without, it
 * plays safe (look up, refund, then email the customer).
 */
function model(messages: { role: string; content: string }[], done: string[]): string | null {
  const prompt = messages.map((m) => m.content).join("\n");
  const learned = [...prompt.matchAll(/^\d+\. Call `([a-z_]+)`/gm)].map((m) => m[1]);
  const plan = learned.length ? learned : ["lookup_order", "issue_refund", "send_email"];
  return plan[done.length] ?? null;
}

async function handle(proctor: Proctor, userId: string, query: string) {
  const conversation: ChatMessage[] = [
    { role: "system", content: "You are the shop's support agent. Use the tools to resolve refund requests." },
    { role: "user", content: query },
  ];
  // Every account gets the agent-wide skills, learned from all accounts' runs.
  const context = await proctor.withSkills(AGENT_ID, { userId, provider: "openai", messages: conversation });

  const orderId = query.match(/\b[A-Z]\d{3,}\b/)?.[0] ?? "unknown";
  const steps: Run["steps"] = [];
  let amount: number | undefined;
  for (let tool = model(context.messages, []); tool; tool = model(context.messages, steps.map((s) => s.tool))) {
    const args = { order_id: orderId, ...(tool === "issue_refund" ? { amount } : {}) };
    const result = callTool(tool, args);
    if (tool === "lookup_order") amount = result.amount as number;
    steps.push({ tool, arguments: args, result, timestamp: new Date().toISOString() });
  }
  const workflowId = proctor.recordRun(AGENT_ID, {
    user_id: userId,
    query,
    steps,
    answer: `Refunded order ${orderId}.`,
    outcome: "success",
    skills_activated: context.skillsActivated,
  });
  return { workflowId, tools: steps.map((s) => s.tool), skills: context.skillsActivated };
}

async function main() {
  const baseUrl = process.env.CONSOLE_URL;
  const apiKey = process.env.PROCTOR_API_KEY;
  if (!baseUrl || !apiKey) {
    console.error("Set CONSOLE_URL (e.g. http://localhost:3000) and PROCTOR_API_KEY (a key with ingest and admin scopes).");
    process.exit(2);
  }
  const proctor = new Proctor({ baseUrl, apiKey, batchSize: 10, flushIntervalMs: 2_000 });
  await proctor.declareAgent(AGENT_ID, { name: "SDK example shop", tools: TOOLS });
  for (const { userId, query } of REQUESTS) {
    const { workflowId, tools, skills } = await handle(proctor, userId, query);
    console.log(`${userId}  ${workflowId}  ${tools.join(" → ")}  skills: ${skills.length ? skills.join(", ") : "none"}`);
  }
  const { results, failed } = await proctor.shutdown();
  const stored = results.filter((r) => r.status === 201 || r.status === 200).length;
  console.log(`recorded ${results.length} runs: ${stored} stored, ${results.length - stored} refused, ${failed.length} batches failed`);
  for (const f of failed) console.error(`batch of ${f.runs.length} runs failed: ${f.error.message}`);
  if (stored !== REQUESTS.length) process.exitCode = 1;
  await printClasses(baseUrl, apiKey);
}

type ClassSummary = { tools: string[]; user_id: string | null; executions: number; distinct_users: number; eligible: boolean; gates: { passed: boolean; reason?: string }[] };

/** What the agent is learning: its trajectory classes, with the accounts each pools and the gates' verdict. */
async function printClasses(baseUrl: string, apiKey: string) {
  const r = await fetch(`${baseUrl}/api/v1/agents/${encodeURIComponent(AGENT_ID)}/classes?limit=10`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (!r.ok) return console.error(`classes: ${r.status}`);
  for (const c of ((await r.json()) as { classes: ClassSummary[] }).classes) {
    const verdict = c.eligible ? "ready to distill" : (c.gates.find((g) => !g.passed)?.reason ?? "not eligible");
    console.log(`class ${c.tools.join(" → ")} (${c.user_id ?? "every account"}): ${c.executions} runs, ${c.distinct_users} accounts, ${verdict}`);
  }
}

await main().catch((e: Error) => {
  console.error(e.message);
  process.exitCode = 1;
});
