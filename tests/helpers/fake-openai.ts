// A loopback server speaking OpenAI chat completions with scripted answers, for tests that
// run the real `openai` client (distillation and the validation judge) without a provider.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ChatRequest = { model: string; system: string; prompt: string; kind: "judge" | "distill" };

/** Text to answer, a delay before answering (past the client's timeout = a timeout), or an HTTP error. */
export type Reply = { content: string; delayMs?: number } | { status: number };

export type FakeOpenAI = {
  /** Base URL for the client (PROCTOR_LLM_BASE_URL). */
  baseUrl: string;
  requests: ChatRequest[];
  /** Decides each answer; defaults to answering "YES" to judges and INSUFFICIENT to distillations. */
  respond: (req: ChatRequest) => Reply;
  stop(): Promise<void>;
};

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    baseUrl: "",
    requests: [],
    respond: (req) => ({ content: req.kind === "judge" ? "YES" : "INSUFFICIENT" }),
    stop: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const parsed = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
      const system = parsed.messages.find((m) => m.role === "system")?.content ?? "";
      const prompt = parsed.messages.find((m) => m.role === "user")?.content ?? "";
      const chat: ChatRequest = { model: parsed.model, system, prompt, kind: system.startsWith("You review a learned procedure") ? "judge" : "distill" };
      fake.requests.push(chat);
      const reply = fake.respond(chat);
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "scripted failure", type: "server_error" } }));
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `chatcmpl-${fake.requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: parsed.model,
            choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
