import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { HashingEmbedder, OpenAIEmbedder, cosine, defaultEmbedder, embedArrayLiterals, embedTexts, embedderForId, offlineEmbedder } from "@/lib/learning/inject/embedder";

/** The numbers an array literal spells (-0 read as 0): six fixed decimals and shortest form say the same. */
const values = (literal: string) => literal.slice(1, -1).split(",").map((v) => Number(v) + 0);

// The learning engine injects a skill when similarity ≥ retrieval_min_similarity (0.70 by default).
const THRESHOLD = 0.7;
const e = new HashingEmbedder();
const sim = (a: string, b: string) => cosine(e.embedOne(a), e.embedOne(b));

describe("offline hashing embedder", () => {
  it("is deterministic, L2-normalized and identifies its vector space", () => {
    const v = e.embedOne("Refund order A1");
    expect(v).toEqual(new HashingEmbedder().embedOne("Refund order A1"));
    expect(v).toHaveLength(512);
    expect(Math.sqrt(v.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 4);
    expect(e.id).toBe("hash-ngram-v2:512");
    // Runs stored under v1 share the hashing and feature keys: they stay comparable.
    expect(embedderForId("hash-ngram-v1:512", e)).toBe(offlineEmbedder);
  });

  it("scores a query equal to a trigger query at 1, far above the threshold", () => {
    expect(sim("Refund order A1", "Refund order A1")).toBeCloseTo(1, 5);
  });

  it("scores light paraphrases of a trigger query above the threshold", () => {
    expect(sim("Refund order A1", "please refund my order B7")).toBeGreaterThanOrEqual(0.9);
    expect(sim("Refund order A1", "Can you refund my order?")).toBeGreaterThanOrEqual(0.9);
    expect(sim("Refund order A1", "I want a refund for order 8812")).toBeGreaterThanOrEqual(0.75);
    expect(sim("Refund order A1", "refunding orders")).toBeGreaterThanOrEqual(0.8);
    expect(sim("Reset my password", "I forgot my password, please reset it")).toBeGreaterThanOrEqual(0.75);
  });

  it("scores unrelated requests far below the threshold", () => {
    for (const other of ["what's the weather in Paris", "Track my package", "Book a flight to Berlin", "Reset my password"]) {
      expect(Math.abs(sim("Refund order A1", other))).toBeLessThan(0.2);
    }
  });

  it("keeps a different intent on the same object below the threshold", () => {
    expect(sim("Refund order A1", "Cancel order A1")).toBeLessThan(THRESHOLD);
    expect(sim("Refund order A1", "Change shipping address for order A1")).toBeLessThan(THRESHOLD);
  });

  it("gives a text without content terms no features, so it matches nothing", () => {
    for (const t of ["", "what is this", "sure, go ahead", "Z9 4410 pat@example.com"]) expect(e.embedOne(t), t).toEqual(new Array(512).fill(0));
    expect(sim("sure, go ahead", "Refund order A1")).toBe(0);
  });

  it("ignores identifiers and numbers", () => {
    expect(e.embedOne("Refund order A1")).toEqual(e.embedOne("refund order ORD-77310 for 12.50"));
  });

  it("writes the PostgreSQL array literal of exactly its vector", () => {
    const texts = ["", "what is this", "Refund order A1", "Ünïcode 日本語 😀 refunds refunded x1 ssss", "order ".repeat(40)];
    for (const dims of [512, 7]) {
      const h = new HashingEmbedder(dims);
      for (const t of texts) {
        const literal = h.arrayLiteral(t);
        expect(literal).toMatch(/^\{-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*\}$/);
        expect(values(literal)).toEqual(values(`{${h.embedOne(t).join(",")}}`));
      }
    }
    // The sums are cleared after each text: the same text gives the same vector again.
    expect(e.embedOne("Refund order A1")).toEqual(e.embedOne("Refund order A1"));
  });
});

describe("cosine", () => {
  it("is 0 for zero vectors and mismatched lengths", () => {
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0], [1, 0, 0])).toBe(0);
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 10);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
  });
});

describe("configured embedder", () => {
  let server: http.Server;
  let baseURL = "";
  let fail = false;
  const seen: { model: string; input: string[]; auth?: string }[] = [];
  beforeAll(async () => {
    // A loopback server speaking the OpenAI embeddings wire protocol.
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        if (fail) {
          res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"down"}}');
          return;
        }
        const { model, input } = JSON.parse(body) as { model: string; input: string[] };
        seen.push({ model, input, auth: req.headers.authorization });
        const data = input.map((t, index) => ({ object: "embedding", index, embedding: [t.length, 1, 0] })).reverse();
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data, model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is offline unless PROCTOR_EMBEDDINGS_MODEL is set", () => {
    expect(defaultEmbedder({})).toBe(offlineEmbedder);
    const configured = defaultEmbedder({ PROCTOR_EMBEDDINGS_MODEL: "emb-1", PROCTOR_EMBEDDINGS_BASE_URL: baseURL });
    expect(configured.id).toMatch(/^openai:emb-1@127\.0\.0\.1:\d+$/);
  });

  it("calls an OpenAI-compatible endpoint and keeps input order", async () => {
    const emb = new OpenAIEmbedder("emb-1", { baseURL, apiKey: "sk-test" });
    const r = await embedTexts(emb, ["a", "bbb"]);
    expect(r.embedderId).toBe(emb.id);
    expect(r.vectors).toEqual([[1, 1, 0], [3, 1, 0]]);
    expect(seen.at(-1)).toEqual({ model: "emb-1", input: ["a", "bbb"], auth: "Bearer sk-test" });
  });

  it("gives array literals of any embedder's vectors", async () => {
    const emb = new OpenAIEmbedder("emb-1", { baseURL, apiKey: "sk-test" });
    expect(await embedArrayLiterals(emb, ["a", "bbb"])).toEqual({ embedderId: emb.id, literals: ["{1,1,0}", "{3,1,0}"] });
    const offline = await embedArrayLiterals(offlineEmbedder, ["Refund order A1"]);
    expect(offline.embedderId).toBe(offlineEmbedder.id);
    expect(offline.literals.map(values)).toEqual([values(`{${offlineEmbedder.embedOne("Refund order A1").join(",")}}`)]);
  });

  it("falls back to the offline embedder, under its own id, when the endpoint fails", async () => {
    fail = true;
    try {
      const emb = new OpenAIEmbedder("emb-1", { baseURL, apiKey: "sk-test" });
      const r = await embedTexts(emb, ["Refund order A1"]);
      expect(r.embedderId).toBe(offlineEmbedder.id);
      expect(r.vectors[0]).toEqual(offlineEmbedder.embedOne("Refund order A1"));
      // Vectors of an embedder this process cannot produce are never compared.
      expect(embedderForId("openai:other@example.com", emb)).toBeNull();
      expect(embedderForId(offlineEmbedder.id, emb)).toBe(offlineEmbedder);
      expect(embedderForId(emb.id, emb)).toBe(emb);
    } finally {
      fail = false;
    }
  });
});
