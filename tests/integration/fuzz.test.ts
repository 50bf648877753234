// The fuzzer: fast-check-generated requests to every agent-API operation (from the contract's
// declarations) and every console server action (from lib/actions), each with path parameters,
// query strings and bodies that are valid-ish, broken in one place, or hostile (wrong types, huge
// numbers, NUL, lone surrogates, bad UTF-8 in paths, deep nesting, long strings, extra fields,
// the regex bombs, and OTLP exports with a poisoned or 60-deep trace or past the limits).
// Whatever comes in: no 5xx (for actions: no "unavailable" result, no call Next.js refuses),
// every 4xx under /api is problem+json whose `status` is the response's (the OTLP export's: an OTLP Status), and a batch in which
// no write was accepted (reads may succeed) changed no table's row count. The shared server without an in-process
// worker, so that nothing but these requests writes. Seed: PROCTOR_FUZZ_SEED reproduces a run.
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { agentOperations, consoleActions, type AgentOperation, type ConsoleAction } from "../helpers/surfaces";
import { changedTables, rowCounter, type RowCounts } from "../helpers/row-counts";
import { hostileJsonText, hostileOtlpExport, inputFor, pathSegment, queryFor } from "../helpers/fuzz-inputs";

const BATCHES = 500;
const BATCH_SIZE = 10;
const CONCURRENCY = 6;

type RouteCase = { kind: "route"; op: string; method: string; path: string; body?: Buffer; contentType?: string };
type ActionCase = { kind: "action"; name: string; input: unknown };
type Case = RouteCase | ActionCase;
/** Actions whose refusals write by design (a failed guess is recorded, as a failed sign-in is). */
const COUNTS_ITS_REFUSALS = new Set(["lib/actions/own-account.ts#changeOwnPassword"]);
/** `key` groups findings of one kind: the operation or action, the status and what was wrong. */
type Outcome = { wrote: boolean; finding: { key: string; text: string } | null; answer: string };

let server: TestServer;
let session: Caller;
let actions: ConsoleAction[];
let countRows: () => Promise<RowCounts>;
const known = ["fuzz-agent", "no-such-agent"];
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const OTLP_OPERATIONS = new Set(agentOperations.filter((op) => op.errors === "otlp").map((op) => op.id));

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  const admin = withKey(ADMIN_KEY);
  expect((await call(server.baseUrl, admin, "PUT", "/api/v1/agents/fuzz-agent", { name: "Fuzz", tools: [{ name: "lookup_order", description: "Find an order" }] })).status).toBe(200);
  const run = await call(server.baseUrl, admin, "POST", "/api/v1/agents/fuzz-agent/workflows", { workflow_id: "fuzz-1", query: "Where is A1?", steps: [{ tool: "lookup_order", arguments: { order_id: "A1" } }] });
  expect(run.status).toBe(201);
  known.push(run.json.id);
  // The ledger writes its schema-version row on its first call, whatever that call is: made here.
  expect((await call(server.baseUrl, admin, "GET", "/api/v1/ledger/procedures/p?tenant=t&agent=a&environment=e")).status).toBe(404);
  session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  actions = await consoleActions();
  countRows = await rowCounter(server.sql);
});
afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

/** One request as sent: the path raw (no URL normalization), the body as bytes. */
function send(c: RouteCase): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${ADMIN_KEY}` };
    if (c.contentType) headers["content-type"] = c.contentType;
    if (c.body) headers["content-length"] = c.body.length;
    const req = http.request({ host: url.hostname, port: url.port, method: c.method, path: c.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(c.body);
  });
}

function routeCase(op: AgentOperation): fc.Arbitrary<Case> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const writes = op.method !== "GET";
  return fc
    .record({
      segments: fc.tuple(...names.map(() => pathSegment(known))),
      query: queryFor(op.query),
      body: writes ? fc.oneof({ weight: 4, arbitrary: inputFor(op.body).map((v) => Buffer.from(JSON.stringify(v) ?? "null")) }, { weight: 1, arbitrary: hostileJsonText }) : fc.constant(undefined),
      contentType: writes ? fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "text/plain", undefined) : fc.constant(undefined),
    })
    .map(({ segments, query, body, contentType }) => {
      let i = 0;
      const path = op.path.replace(/\{\w+\}/g, () => segments[i++]) + (query ? `?${query}` : "");
      return { kind: "route", op: op.id, method: op.method, path, body, contentType } as const;
    });
}

/** An OTLP export of ../helpers/hostile-otlp.ts (the operation has no path parameters). */
const otlpCase = (op: AgentOperation): fc.Arbitrary<Case> => hostileOtlpExport.map(({ body, contentType }) => ({ kind: "route", op: op.id, method: op.method, path: op.path, body, contentType }) as const);

const actionCase = (a: ConsoleAction): fc.Arbitrary<Case> => inputFor(a.input).map((input) => ({ kind: "action", name: a.name, input }) as const);

const describeCase = (c: Case) => (c.kind === "route" ? `${c.method} ${c.path.slice(0, 120)} (${c.op})` : `action ${c.name}`);
const excerpt = (s: string) => s.slice(0, 160).replace(/\s+/g, " ");

async function runCase(c: Case): Promise<Outcome> {
  if (c.kind === "action") {
    const r = await callAction(server, session, c.name, c.input);
    const broke = r.httpStatus >= 500 || r.kind === "rejected" || r.kind === "unavailable";
    const text = `action ${c.name}: HTTP ${r.httpStatus}, ${r.kind} ${excerpt(r.error?.message ?? r.text)}`;
    // A wrong current password is refused and counted toward the sign-in throttle, by design.
    const wrote = r.kind === "ok" || COUNTS_ITS_REFUSALS.has(c.name);
    return { wrote, finding: broke ? { key: `${c.name} ${r.kind}`, text } : null, answer: `action ${r.kind}` };
  }
  const r = await send(c);
  const where = `${c.method} ${c.path.slice(0, 120)} (${c.op}, ${c.contentType ?? "no content-type"})`;
  let finding: Outcome["finding"] = null;
  if (r.status >= 500) finding = { key: `${c.op} ${r.status}`, text: `${where}: ${r.status} ${excerpt(r.text)}` };
  else if (r.status >= 400 && OTLP_OPERATIONS.has(c.op)) {
    // The OTLP export answers refusals with google.rpc.Status (protobuf, or JSON {code, message}) as its protocol says.
    let code: unknown = "protobuf";
    try {
      if (r.type.startsWith("application/json")) code = JSON.parse(r.text).code;
    } catch {
      code = undefined;
    }
    if (!/^application\/(json|x-protobuf)/.test(r.type) || (code !== "protobuf" && typeof code !== "number")) {
      finding = { key: `${c.op} ${r.status} ${r.type}`, text: `${where}: ${r.status} as ${r.type || "no content-type"}, not an OTLP Status: ${excerpt(r.text)}` };
    }
  } else if (r.status >= 400) {
    let status: unknown;
    try {
      status = JSON.parse(r.text).status;
    } catch {
      status = undefined;
    }
    if (!r.type.startsWith("application/problem+json") || status !== r.status) {
      finding = { key: `${c.op} ${r.status} ${r.type}`, text: `${where}: ${r.status} as ${r.type || "no content-type"}, status field ${String(status)}: ${excerpt(r.text)}` };
    }
  }
  return { wrote: r.status < 400 && c.method !== "GET", finding, answer: `route ${String(r.status)[0]}xx` };
}

/** Runs `batch` a few at a time, in order of generation. */
async function runBatch(batch: Case[], spent: Record<Case["kind"], { n: number; ms: number }>): Promise<Outcome[]> {
  const out: Outcome[] = new Array(batch.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batch.length) {
        const i = next++;
        const t0 = performance.now();
        // A thrown error (a connection the server dropped, an answer that cannot be read) is a finding too.
        out[i] = await runCase(batch[i]).catch((e: Error) => ({ wrote: true, finding: { key: `${describeCase(batch[i])} threw`, text: `${describeCase(batch[i])}: ${e.message}` }, answer: "threw" }));
        spent[batch[i].kind].n++;
        spent[batch[i].kind].ms += performance.now() - t0;
      }
    }),
  );
  return out;
}

describe(`fuzzer (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("every operation and action is fuzzed", () => {
    expect(agentOperations.length).toBeGreaterThan(20);
    expect(actions.length).toBeGreaterThan(10);
  });

  it(`${BATCHES * BATCH_SIZE} generated requests: no 5xx, problem+json on every 4xx, nothing written when no write was accepted`, { timeout: 420_000 }, async () => {
    const seed = Number(process.env.PROCTOR_FUZZ_SEED ?? Date.now() % 2 ** 31);
    // Actions cost about twice a route call (an RSC round trip): a tenth of the cases.
    const anyCase = fc.oneof(
      ...agentOperations.map((op) => ({ weight: 3, arbitrary: OTLP_OPERATIONS.has(op.id) ? fc.oneof({ weight: 4, arbitrary: routeCase(op) }, { weight: 1, arbitrary: otlpCase(op) }) : routeCase(op) })),
      ...actions.map((a) => ({ weight: 1, arbitrary: actionCase(a) })),
    );
    const findings = new Map<string, string>();
    const answers: Record<string, number> = {};
    const spent = { route: { n: 0, ms: 0 }, action: { n: 0, ms: 0 } };
    let cases = 0;
    let checkedBatches = 0;
    const started = Date.now();
    let rows: RowCounts | undefined;
    await fc.assert(
      fc.asyncProperty(fc.array(anyCase, { minLength: BATCH_SIZE, maxLength: BATCH_SIZE }), async (batch) => {
        // Nothing else writes (no worker), so the counts after one batch are the counts before the next.
        const before = (rows ??= await countRows());
        const outcomes = await runBatch(batch, spent);
        rows = await countRows();
        cases += batch.length;
        for (const o of outcomes) {
          answers[o.answer] = (answers[o.answer] ?? 0) + 1;
          if (o.finding && !findings.has(o.finding.key)) findings.set(o.finding.key, o.finding.text);
        }
        // Only a batch in which no write was accepted must leave every table as it was.
        if (outcomes.some((o) => o.wrote)) return;
        checkedBatches++;
        const grown = changedTables(before, rows);
        if (grown.length) findings.set(`rows ${grown}`, `a batch of refused requests changed the row count of ${grown.join(", ")}: ${batch.map(describeCase).join("; ")}`);
      }),
      { numRuns: BATCHES, seed, endOnFailure: true },
    );
    console.log(`fuzzer: ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed}); ${checkedBatches} batches without an accepted write row-checked; ${findings.size} distinct findings; mean latency ${Object.entries(spent).map(([k, v]) => `${k}s ${(v.ms / Math.max(v.n, 1)).toFixed(0)} ms (${v.n})`).join(", ")}; answers ${JSON.stringify(answers)}`);
    expect([...findings.values()]).toEqual([]);
    // Not vacuous: requests got through to the handlers and to the actions' validation, and the session held.
    expect(answers["route 2xx"]).toBeGreaterThan(0);
    expect(answers["action validation_error"]).toBeGreaterThan(0);
    expect(answers["action unauthorized"]).toBeUndefined();
    expect(cases).toBeGreaterThanOrEqual(5000);
    expect(checkedBatches).toBeGreaterThan(BATCHES / 10);
  });
});
