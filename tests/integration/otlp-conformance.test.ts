// The OTLP conformance corpus: every directory of tests/fixtures/otlp holds the trace exports a
// real agent framework sent for the shop agent's 30 scripted runs (tools/otlp-recorder, byte for
// byte) and the runs Proctor should store (scenario.json). Each fixture's exports are replayed,
// with their recorded content type and encoding, to POST /api/v1/otlp/v1/traces under an ingest
// key of the built console; once the worker has assembled every trace, the 30 stored runs must be
// exactly the scenario's: agent (shop-<framework>), account, thread, query, answer, steps in order
// with their arguments, results and errors, outcome and how it was decided, and each thread's
// conversation messages. Both databases: staging and assembly are engine SQL.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "@/lib/auth/api-keys";
import { ExportTraceServiceRequest, ExportTraceServiceResponse, READ_OPTIONS } from "@/lib/otlp/wire";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { OTLP_SERVER_ENV } from "../helpers/otlp";

const PATH = "/api/v1/otlp/v1/traces";
const CORPUS = path.resolve(import.meta.dirname, "../fixtures/otlp");
const INGEST_KEY = "pk_conformnc1_" + "c".repeat(32);

type Recorded = { content_type: string; content_encoding?: string; body_base64: string };
type ExpectedStep = { tool: string; arguments: Record<string, unknown> } & ({ result: unknown } | { error: string });
type ScenarioRun = { index: number; account: string; thread: string; query: string; answer: string; steps: ExpectedStep[]; outcome: "success" | "failure" };
type StoredStep = { tool: string; arguments?: unknown; result?: unknown; error?: { type: string; message: string } | null };
type StoredRun = { agent_id: string; user_id: string | null; thread_id: string | null; query: string; answer: string | null; steps: StoredStep[]; outcome: string; outcome_source: string };

/** Frameworks whose spans carry the tools' JSON Schemas (the others name the tools only). */
const SCHEMAS_CARRIED = new Set(["ai-sdk-6", "ai-sdk-7", "openai-agents", "langgraph"]);

const frameworks = readdirSync(CORPUS).filter((d) => existsSync(path.join(CORPUS, d, "exports.jsonl")) && existsSync(path.join(CORPUS, d, "scenario.json")));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: OTLP_SERVER_ENV });
  await server.sql.query("INSERT INTO api_keys (id, name, prefix, hash, scopes) VALUES ('key-conformance', 'OTLP exporter', 'conformnc1', $1, ARRAY['ingest'])", [hashApiKey(INGEST_KEY)]);
});
afterAll(async () => {
  await server?.sql.query("DELETE FROM api_keys WHERE id = 'key-conformance'");
});

const bodyOf = (e: Recorded) => Buffer.from(e.body_base64, "base64");

/** The trace ids an export holds, read with the OTLP messages themselves. */
function traceIdsOf(e: Recorded): string[] {
  const raw = e.content_encoding === "gzip" ? gunzipSync(bodyOf(e)) : bodyOf(e);
  const request = (e.content_type.includes("json") ? JSON.parse(raw.toString()) : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(raw), READ_OPTIONS)) as {
    resourceSpans?: { scopeSpans?: { spans?: { traceId: number[] | string }[] }[] }[];
  };
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) => (ss.spans ?? []).map((s) => (typeof s.traceId === "string" ? s.traceId.toLowerCase() : Buffer.from(s.traceId).toString("hex")))),
  );
}

/** What the exporter hears back: no span refused. */
async function rejectedSpans(res: Response, contentType: string): Promise<number> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const body = contentType.includes("json")
    ? (JSON.parse(Buffer.from(bytes).toString()) as { partialSuccess?: { rejectedSpans?: string | number } })
    : (ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(bytes), { longs: String }) as { partialSuccess?: { rejectedSpans?: string } });
  return Number(body.partialSuccess?.rejectedSpans ?? 0);
}

const asExpected = (s: StoredStep): ExpectedStep =>
  s.error ? { tool: s.tool, arguments: s.arguments as Record<string, unknown>, error: s.error.message } : { tool: s.tool, arguments: s.arguments as Record<string, unknown>, result: s.result };

describe(`OTLP conformance corpus (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("holds the recorded frameworks", () => {
    expect(frameworks).toEqual(expect.arrayContaining(["ai-sdk-6", "ai-sdk-7", "strands", "strands-latest", "mastra", "openai-agents", "langgraph"]));
  });

  for (const framework of frameworks) {
    it(`${framework}: the exports become the scenario's 30 runs, exactly`, async () => {
      const dir = path.join(CORPUS, framework);
      const exports = readFileSync(path.join(dir, "exports.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Recorded);
      const scenario = JSON.parse(readFileSync(path.join(dir, "scenario.json"), "utf8")) as ScenarioRun[];
      const traces = [...new Set(exports.flatMap(traceIdsOf))];
      expect(traces).toHaveLength(scenario.length);

      for (const e of exports) {
        const res = await fetch(server.baseUrl + PATH, {
          method: "POST",
          headers: { authorization: `Bearer ${INGEST_KEY}`, "content-type": e.content_type, ...(e.content_encoding ? { "content-encoding": e.content_encoding } : {}) },
          body: new Uint8Array(bodyOf(e)),
        });
        expect(res.status).toBe(200);
        expect(await rejectedSpans(res, e.content_type)).toBe(0);
      }
      const assembled = async () =>
        (await server.sql.query(`SELECT count(*)::int AS n FROM otlp_traces WHERE trace_id = ANY($1) AND assembled_at IS NOT NULL AND NOT queued`, [traces])).rows[0].n === traces.length;
      await waitFor(assembled, 60_000, server.output);

      const runs: StoredRun[] = (
        await server.sql.query(
          `SELECT agent_id, user_id, thread_id, query, answer, steps, outcome, outcome_source FROM workflows WHERE root_trace_id = ANY($1) ORDER BY created_at, workflow_id`,
          [traces],
        )
      ).rows;
      expect(runs).toHaveLength(scenario.length);
      expect(runs.map((r) => ({ ...r, steps: r.steps.map(asExpected) }))).toEqual(
        scenario.map((s) => ({
          agent_id: `shop-${framework}`,
          user_id: s.account,
          thread_id: s.thread,
          query: s.query,
          answer: s.answer,
          steps: s.steps,
          outcome: s.outcome.toUpperCase(),
          // Nothing is reported (a status OK is no report): the last step's error decides, else the default.
          outcome_source: s.outcome === "failure" ? "STEP_ERROR" : "DEFAULT",
        })),
      );
      // A failed call carries no result (its error text is not one).
      expect(runs.flatMap((r) => r.steps.filter((s) => s.error && "result" in s))).toEqual([]);

      // Each thread's conversation: the request, then the answer.
      const messages = await server.sql.query(
        `SELECT thread_id, user_id, role, text FROM conversation_messages WHERE agent_id = $1 ORDER BY thread_id, timestamp, role DESC`,
        [`shop-${framework}`],
      );
      expect(messages.rows).toEqual(
        [...scenario].sort((a, b) => a.thread.localeCompare(b.thread)).flatMap((s) => [
          { thread_id: s.thread, user_id: s.account, role: "user", text: s.query },
          { thread_id: s.thread, user_id: s.account, role: "assistant", text: s.answer },
        ]),
      );

      // The agent was declared on first sight with the tools its runs used.
      const agent = await call(server.baseUrl, withKey(ADMIN_KEY), "GET", `/api/v1/agents/shop-${framework}`);
      expect(agent.status).toBe(200);
      const tools = new Map<string, { parameters: { properties?: Record<string, unknown> } }>(agent.json.tools.map((t: { name: string }) => [t.name, t]));
      expect([...tools.keys()]).toEqual(expect.arrayContaining(["lookup_order", "issue_refund", "track_shipment"]));
      if (SCHEMAS_CARRIED.has(framework)) expect(Object.keys(tools.get("issue_refund")!.parameters.properties ?? {}).sort()).toEqual(["amount", "order_id"]);
    });
  }
});
