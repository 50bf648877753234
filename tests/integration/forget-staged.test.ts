// Forgetting an account reaches what has not become runs yet (lib/otlp/forget.ts): its staged
// OTLP traces (their attributes hold its prompts and messages) are deleted, its experiment cases
// lose their request and account, and a trace assembly that read the account's spans before the
// forget stores none of its runs or messages after it. The worker is off: assembly runs here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { assembleTraces } from "@/lib/otlp/operations";
import { withoutForgotten } from "@/lib/otlp/forget";
import { runsOfTrace } from "@/lib/otlp/map";
import type { StagedSpan } from "@/lib/otlp/spans";
import { startTestServer, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin } from "../helpers/learning";
import { jsonExport, postExport, recordAgentTrace, traceIdOf } from "../helpers/otlp";

let server: TestServer;
let db: Db;
const MARKER = "zq-forget-staged-marker";

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  db = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await db?.$disconnect();
});

async function stage(user: string, query: string) {
  const spans = recordAgentTrace({ agentId: "forget-otel", agentName: "Forget OTel", query, user, thread: `t-${user}`, calls: [{ tool: "lookup_order", args: { order_id: "Q1" } }], at: Date.now() - 60_000 });
  const res = await postExport(server.baseUrl, jsonExport(spans));
  expect(res.status).toBe(200);
  const traceId = traceIdOf(spans);
  expect(await spanCount(traceId)).toBe(spans.length);
  return traceId;
}
const spanCount = async (traceId: string) => (await server.sql.query("SELECT count(*)::int AS n FROM otlp_spans WHERE trace_id = $1", [traceId])).rows[0].n as number;
const forget = async (user: string) => {
  const r = await call(server.baseUrl, admin, "DELETE", `/api/v1/accounts/${user}`);
  expect(r.status, r.text).toBe(200);
};

describe(`forgetting staged data (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("deletes the account's staged traces and clears its experiment cases, leaving others'", async () => {
    const mine = await stage("acct-fs1", `Refund ${MARKER} order`);
    const other = await stage("acct-fs2", "Refund another order");
    await db.experiment.create({
      data: {
        id: "exp-forget", agentId: "forget-otel", skillId: "sk-none", skillVersion: 1, name: "forget", model: "m", repetitions: 1, arms: [], baselineArm: "a", provider: "openai", bootstrapSeed: 1, createdBy: "test",
        cases: { create: [
          { caseId: "c1", position: 0, request: `Please refund ${MARKER}`, userId: "acct-fs1" },
          { caseId: "c2", position: 1, request: "Someone else's request", userId: "acct-fs2" },
        ] },
      },
    });

    await forget("acct-fs1");
    expect(await spanCount(mine)).toBe(0);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM otlp_traces WHERE trace_id = $1", [mine])).rows[0].n).toBe(0);
    expect(await spanCount(other)).toBeGreaterThan(0);
    const cases = (await server.sql.query("SELECT case_id, request, user_id FROM experiment_cases WHERE experiment_id = 'exp-forget' ORDER BY position")).rows;
    expect(cases).toEqual([
      { case_id: "c1", request: "", user_id: null },
      { case_id: "c2", request: "Someone else's request", user_id: "acct-fs2" },
    ]);
    const holding = (await server.sql.query("SELECT count(*)::int AS n FROM otlp_spans WHERE attributes::text LIKE $1", [`%${MARKER}%`])).rows[0].n;
    expect(holding).toBe(0);
  });

  it("an assembly that read the account's spans before the forget stores none of its runs or messages", async () => {
    const traceId = await stage("acct-fs3", "Refund order R3");
    const readAt = new Date();
    const spans = (await server.sql.query(
      `SELECT json_agg(json_build_object('traceId', trace_id, 'spanId', span_id, 'parentSpanId', parent_span_id, 'name', name, 'startNs', start_ns::text,
         'endNs', end_ns::text, 'statusCode', status_code, 'statusMessage', status_message, 'serviceName', service_name, 'attributes', attributes, 'events', events)) AS spans
       FROM otlp_spans WHERE trace_id = $1`,
      [traceId],
    )).rows[0].spans as StagedSpan[];
    const runs = runsOfTrace(spans);
    expect(runs.map((r) => r.workflow.user_id)).toEqual(["acct-fs3"]);
    expect(await withoutForgotten(db, runs, readAt)).toHaveLength(1);

    await forget("acct-fs3");
    // What an assembly in flight holds is dropped; a trace sent after the forget is new data.
    expect(await withoutForgotten(db, runs, readAt)).toEqual([]);
    expect(await withoutForgotten(db, runs, new Date(Date.now() + 1000))).toHaveLength(1);
    await assembleTraces(db, { traceIds: [traceId] });
    expect((await server.sql.query("SELECT count(*)::int AS n FROM workflows WHERE user_id = 'acct-fs3'")).rows[0].n).toBe(0);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM conversation_messages WHERE user_id = 'acct-fs3'")).rows[0].n).toBe(0);
  });
});
