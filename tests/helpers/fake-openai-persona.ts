// A loopback server speaking the OpenAI chat-completions wire protocol, for persona
// reflection tests with the real `openai` client. Each request gets the next queued reply
// (or the default one); every request body is kept for assertions.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Json } from "./http";

export type FakeReply = {
  /** The assistant message content. */
  content?: string;
  /** Answer this HTTP status with an error body instead. */
  status?: number;
  /** Wait this long before answering (longer than the client's timeout → a timeout). */
  delayMs?: number;
  /** Answer only once this settles: the test decides when the model "finishes". */
  hold?: Promise<unknown>;
  usage?: { prompt_tokens: number; completion_tokens: number };
};

export type FakeOpenAI = {
  /** Base URL for the SDK (`…/v1`). */
  baseUrl: string;
  requests: { path: string; body: Json }[];
  queue(...replies: FakeReply[]): void;
  close(): Promise<void>;
};

export const proposalReply = (goals: string, evidenceIds: string[], reason = "The user asked for this repeatedly."): FakeReply => ({
  content: JSON.stringify({ change: true, goals, reason, evidence_ids: evidenceIds }),
  usage: { prompt_tokens: 420, completion_tokens: 64 },
});

export async function startFakeOpenAI(fallback: FakeReply = { content: JSON.stringify({ change: false, reason: "Nothing durable." }) }): Promise<FakeOpenAI> {
  const queued: FakeReply[] = [];
  const requests: { path: string; body: Json }[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body: Json = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      requests.push({ path: req.url ?? "", body });
      const reply = queued.shift() ?? fallback;
      const send = () => {
        if (res.destroyed) return;
        if (reply.status && reply.status >= 400) {
          res.writeHead(reply.status, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "fake provider error", type: "server_error" } }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body?.model ?? "fake",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply.content ?? "" } }],
            usage: { ...(reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 }), total_tokens: 0 },
          }),
        );
      };
      if (reply.hold) void reply.hold.then(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...replies) => queued.push(...replies),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
