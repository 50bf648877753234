// A loopback model server speaking OpenAI chat completions with tool calls, so the example runs
// offline and deterministically. It follows what it was given: the numbered "Call `tool`" steps
// of an injected skill (user or developer message alike); otherwise the tool calls of the first
// past run in its context; otherwise a cautious default (look up, refund, email). Usage is
// counted as one token per four characters, so the arms' prompt sizes show in the figures.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type Message = { role: string; content?: string | null; tool_calls?: unknown[] };

const DEFAULT_PLAN = ["lookup_order", "issue_refund", "send_email"];
const tokens = (text: string) => Math.ceil(text.length / 4);

/** The tools the context tells the model to call, in order. */
export function planOf(messages: Message[]): string[] {
  const text = messages.map((m) => m.content ?? "").join("\n");
  const skill = [...text.matchAll(/^\d+\. Call `([a-z_]+)`/gm)].map((m) => m[1]);
  if (skill.length) return skill;
  const past = /Tool calls: (.*?) \| Answer:/.exec(text);
  if (past) return [...past[1].matchAll(/([a-z_]+)\(/g)].map((m) => m[1]);
  return DEFAULT_PLAN;
}

function reply(messages: Message[]) {
  const plan = planOf(messages);
  const request = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  // The request comes last in the user's turn, after any context quoting other orders.
  const orderId = [...request.matchAll(/\b[A-Z]\d{3,}\b/g)].pop()?.[0] ?? "unknown";
  const done = messages.filter((m) => m.role === "tool");
  const next = plan[done.length];
  if (!next) return { role: "assistant", content: `Refunded order ${orderId}.` };
  const looked = done.map((m) => JSON.parse(m.content ?? "{}") as { amount?: number }).find((r) => r.amount !== undefined);
  const args = next === "issue_refund" ? { order_id: orderId, amount: looked?.amount ?? 0 } : { order_id: orderId };
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: `call_${done.length + 1}`, type: "function", function: { name: next, arguments: JSON.stringify(args) } }],
  };
}

export async function startModelServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return void res.writeHead(404).end();
      const { model, messages } = JSON.parse(body) as { model: string; messages: Message[] };
      const message = reply(messages);
      const usage = { prompt_tokens: tokens(JSON.stringify(messages)), completion_tokens: tokens(JSON.stringify(message)) };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${++n}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
