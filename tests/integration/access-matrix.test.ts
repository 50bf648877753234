// The access matrix: every agent operation (from the contract), console route (from app/),
// server action (from lib/actions) and console page (from app/(console)) against every principal
// of access-matrix.ts, compared with the outcomes that file writes out. A route, action or page
// the table lacks fails the completeness checks; a refused write must leave every table as it was.
// Operations on a record by its id are probed on records that exist (a third agent's skill, run
// and experiment), so that a key bound to another agent getting 404 is told apart from a miss.
import fc from "fast-check";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller, type Json } from "../helpers/http";
import { callAction, type ActionCall } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { agentBoundKey, expiredKey } from "../helpers/keys";
import { conforming } from "../helpers/fuzz-inputs";
import { changedTables, rowCounter, type RowCounts } from "../helpers/row-counts";
import { cycle, postRun, postRuns, putAgent } from "../helpers/learning";
import { agentOperations, consoleActions, consolePages, routeHandlers, type ConsoleAction } from "../helpers/surfaces";
import {
  ACTION_MATRIX,
  ACTIONS,
  AGENT_MATRIX,
  AGENT_OPERATIONS,
  CONSOLE_ROUTES,
  PAGE_MATRIX,
  PRINCIPALS,
  READ_ONLY_ENV,
  SERVER_ENV,
  UNPROBED_ROUTES,
  type Expected,
  type Principal,
  type Row,
} from "./access-matrix";

/** Who calls, on which server: the agent API and the console may take different credentials. */
type Calling = { server: TestServer; agent: Caller; console: Caller; counts: () => Promise<RowCounts> };

let main: TestServer;
let readOnly: TestServer;
let principals: Partial<Record<Principal, Calling>>;
let actions: ConsoleAction[];
/** Records of a third agent on the main server, addressed by their ids. */
let records: { skill: string; experiment: string; workflow: string };

/** The fixtures' ids a probe fills path parameters with (entities may not exist: access comes first). */
const FILL: Record<string, string> = { agent_id: "matrix-agent", agentId: "matrix-agent", id: "matrix-1", skill_id: "matrix-skill", canonical_hash: "matrix-hash", user_id: "matrix-account", case_id: "matrix-case", job_id: "1" };
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => FILL[name] ?? "matrix");

/** An agent operation's path template naming a skill, an experiment or a run by its id. */
const RECORD_IN_PATH = /\{skill_id\}|\{experiment_id\}|^\/api\/v1\/workflows\/\{id\}/;
/** The path with the fixture records' ids in it: a record's own id, then fill() for the rest. */
const fillRecords = (template: string) =>
  template.replace("{skill_id}", records.skill).replace("{experiment_id}", records.experiment).replace(/^\/api\/v1\/workflows\/\{id\}/, `/api/v1/workflows/${records.workflow}`);

/** A skill (shadow), a run and an experiment of an agent no probe names in its path; ids of the main server's. */
async function makeRecords(server: TestServer): Promise<typeof records> {
  const owner = "matrix-owner";
  await putAgent(server, owner, { require_shadow: true });
  const run = await postRun(server, owner);
  await postRuns(server, owner, 4);
  const skill = (await cycle(server, owner)).promoted[0] as string;
  expect(skill).toBeTruthy();
  const body = { name: "matrix", model: "matrix-model", skill_id: skill, cases: [{ case_id: "c1", request: "Refund order M1", expected_answer: "done" }] };
  const created = await call(server.baseUrl, withKey(ADMIN_KEY), "POST", `/api/v1/agents/${owner}/experiments`, body);
  expect(created.status, created.text).toBe(201);
  return { skill, experiment: created.json.experiment_id, workflow: run.id };
}

/** Bodies whose refinements random draws do not meet (an experiment needs a case with an expectation). */
const SAMPLE_BODIES: Record<string, unknown> = {
  createExperiment: { skill_id: "matrix-skill", name: "matrix", model: "matrix-model", cases: [{ request: "matrix", expected_answer: "matrix" }] },
};

/** One input `schema` accepts, drawn with a fixed seed (`{}` when none of the draws passes). */
function validInput(schema: z.ZodType | undefined, operationId?: string): unknown {
  if (!schema) return undefined;
  if (operationId && operationId in SAMPLE_BODIES) return SAMPLE_BODIES[operationId];
  return fc.sample(conforming(schema), { numRuns: 40, seed: 13 }).find((v) => schema.safeParse(v).success) ?? {};
}

/** Each principal, made the way it arises: keys through Settings → API keys, users through the console. */
async function makePrincipals(): Promise<Partial<Record<Principal, Calling>>> {
  const admin = await login(main.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const key = async (scopes: string[]) => {
    const made = await callAction(main, admin, "lib/actions/api-keys.ts#createApiKey", { name: `matrix ${scopes}`, scopes });
    expect(made.kind, made.text.slice(0, 200)).toBe("ok");
    return made.data as { api_key: { id: string }; secret: string };
  };
  const revoked = await key(["ingest"]);
  expect((await callAction(main, admin, "lib/actions/api-keys.ts#revokeApiKey", { id: revoked.api_key.id, reason: "access matrix" })).kind).toBe("ok");
  await createConsoleUser(main.baseUrl, admin, { email: "matrix-viewer@test.local", role: "VIEWER", password: "matrix-viewer-pw-1" });
  const mainCounts = await rowCounter(main.sql);
  const on = (caller: Caller): Calling => ({ server: main, agent: caller, console: caller, counts: mainCounts });
  return {
    anonymous: on(anonymous),
    garbageKey: on(withKey(`pk_garbage00_${"g".repeat(32)}`)),
    revokedKey: on(withKey(revoked.secret)),
    expiredKey: on((await expiredKey(main, admin)).caller),
    ingestKey: on(withKey((await key(["ingest"])).secret)),
    adminKey: on(withKey(ADMIN_KEY)),
    otherAgentKey: on((await agentBoundKey(main, admin, ["some-other-agent"])).caller),
    viewer: on(await login(main.baseUrl, "matrix-viewer@test.local", "matrix-viewer-pw-1")),
    admin: on(admin),
    readOnly: { server: readOnly, agent: withKey(ADMIN_KEY), console: await login(readOnly.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD), counts: await rowCounter(readOnly.sql) },
  };
}

beforeAll(async () => {
  main = await startTestServer({ env: SERVER_ENV });
  readOnly = await startTestServer({ env: READ_ONLY_ENV });
  principals = await makePrincipals();
  records = await makeRecords(main);
  actions = await consoleActions();
});
afterAll(async () => {
  await main?.stop();
  await readOnly?.stop();
});

type Reply = { status: number; headers: Headers; json: Json };

/**
 * What a response means for access; anything else (a 5xx, a refusal without a problem body) is
 * named as is. A 404 is "ok" (the probe's entity may not exist) unless the probe names something
 * that does exist (`found`): then it is a 404 of its own.
 */
function observed(r: Reply, opts: { page?: boolean; otlp?: boolean; found?: boolean } = {}): Expected | string {
  const location = r.headers.get("location");
  if (r.status >= 300 && r.status < 400 && location && new URL(location, "http://x").pathname === "/login") return "login";
  if (r.status >= 500) return `error ${r.status}`;
  if (r.status === 404 && opts.found) return r.headers.get("content-type")?.includes("application/problem+json") ? 404 : "404 without problem+json";
  if (r.status !== 401 && r.status !== 403) return "ok";
  // The OTLP export refuses with google.rpc.Status bodies ({code, message}) as its protocol says.
  const refusal = opts.otlp ? typeof r.json?.code === "number" : r.headers.get("content-type")?.includes("application/problem+json");
  if (!opts.page && !refusal) return `${r.status} without ${opts.otlp ? "an OTLP Status" : "problem+json"}`;
  if (r.status === 401) return 401;
  return /read-only/i.test(r.json?.detail ?? r.json?.message ?? "") ? "read-only" : 403;
}

function observedAction(r: ActionCall): Expected | string {
  if (r.kind === "unauthorized") return 401;
  if (r.kind === "forbidden") return /read-only/i.test(r.error?.message ?? "") ? "read-only" : 403;
  if (r.kind === "rejected" || r.kind === "unavailable") return `error ${r.httpStatus} ${r.kind}`;
  return "ok";
}

/**
 * Waits (up to 10 s) until no job is running or due within two seconds: work an allowed probe started (an OTLP
 * export's assembly, a shadow evaluation) must land before the next probe's counts are taken.
 */
async function jobsSettled(server: TestServer) {
  const busy = async () => (await server.sql.query("SELECT count(*)::int AS n FROM jobs WHERE status = 'RUNNING' OR (status = 'PENDING' AND run_after < now() + interval '2 seconds')")).rows[0].n > 0;
  for (let waited = 0; waited < 10_000 && (await busy()); waited += 100) await new Promise((r) => setTimeout(r, 100));
}

/** Runs `probe` for every entry of `table` and principal; a refused write must change no table's row count. */
async function matrix(table: Record<string, Row>, probe: (entry: string, who: Calling, p: Principal) => Promise<{ outcome: Expected | string; writes: boolean }>) {
  const want: Record<string, Partial<Record<Principal, Expected | string>>> = {};
  const got: Record<string, Partial<Record<Principal, Expected | string>>> = {};
  const wrote: string[] = [];
  for (const [entry, row] of Object.entries(table)) {
    want[entry] = {};
    got[entry] = {};
    for (const [i, p] of PRINCIPALS.entries()) {
      const who = principals[p];
      if (!who) continue;
      want[entry][p] = row[i];
      await jobsSettled(who.server);
      const before = await who.counts();
      const { outcome, writes } = await probe(entry, who, p);
      got[entry][p] = outcome;
      if (writes && outcome !== "ok") {
        const changed = changedTables(before, await who.counts());
        if (changed.length) wrote.push(`${p} ${entry} (${outcome}) changed ${changed.join(", ")}`);
      }
    }
  }
  expect(got).toEqual(want);
  expect(wrote).toEqual([]);
}

const agentScope: Record<string, string> = Object.fromEntries(Object.entries(AGENT_OPERATIONS).flatMap(([scope, ids]) => ids!.map((id) => [id, scope])));

describe(`access matrix (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("the table covers every agent operation, route handler, server action and console page, and nothing else", () => {
    const opIds = agentOperations.map((o) => o.id).sort();
    expect(Object.keys(AGENT_MATRIX).sort()).toEqual(opIds);
    expect(Object.values(AGENT_OPERATIONS).flat().sort()).toEqual(opIds);
    // Each operation declares the scope the table says (a route with the wrong scope is caught here and below).
    expect(Object.fromEntries(agentOperations.map((o) => [o.id, o.auth === "none" ? "public" : o.access]))).toEqual(Object.fromEntries(opIds.map((id) => [id, agentScope[id]])));
    const contract = new Set(agentOperations.map((o) => `${o.method} ${o.path}`));
    const handlers = routeHandlers().map((h) => `${h.method} ${h.path}`);
    expect(handlers.filter((h) => !contract.has(h)).sort()).toEqual([...Object.keys(CONSOLE_ROUTES), ...Object.keys(UNPROBED_ROUTES)].sort());
    expect([...contract].filter((c) => !handlers.includes(c))).toEqual([]);
    expect(Object.fromEntries(actions.map((a) => [a.name, a.scope]))).toEqual(ACTIONS);
    expect(Object.keys(ACTION_MATRIX).sort()).toEqual(Object.keys(ACTIONS).sort());
    expect(consolePages().sort()).toEqual(Object.keys(PAGE_MATRIX).sort());
  });

  it("every principal of the table is made", () => {
    expect(PRINCIPALS.filter((p) => !principals[p])).toEqual([]);
  });

  it("agent API operations", { timeout: 180_000 }, async () => {
    const ops = new Map(agentOperations.map((o) => [o.id, o]));
    await matrix(AGENT_MATRIX, async (id, who) => {
      const op = ops.get(id)!;
      const query = validInput(op.query) as Record<string, unknown> | undefined;
      const qs = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : "";
      const body = op.method === "GET" ? undefined : (validInput(op.body, id) ?? {});
      // The records exist on the main server only: the read-only one is probed with ids of nothing.
      const found = who.server === main && RECORD_IN_PATH.test(op.path);
      const r = await call(who.server.baseUrl, who.agent, op.method, fill(found ? fillRecords(op.path) : op.path) + (qs ? `?${qs}` : ""), body);
      return { outcome: observed(r, { otlp: op.errors === "otlp", found }), writes: op.method !== "GET" };
    });
  });

  it("answers another agent's record by its id in the words of a missing one", async () => {
    const other = principals.otherAgentKey!.agent;
    const probed = agentOperations.filter((o) => RECORD_IN_PATH.test(o.path));
    expect(probed.length).toBe(14);
    for (const op of probed) {
      const body = op.method === "GET" ? undefined : (validInput(op.body, op.id) ?? {});
      const hidden = await call(main.baseUrl, other, op.method, fill(fillRecords(op.path)), body);
      const missing = await call(main.baseUrl, other, op.method, fill(op.path.replace(/\{(skill_id|experiment_id|id)\}/, "no-such-record")), body);
      expect([hidden.status, missing.status], op.id).toEqual([404, 404]);
      const id = Object.values(records).find((r) => hidden.json.detail.includes(`'${r}'`));
      expect(id && hidden.json.detail.replace(id, "no-such-record"), op.id).toBe(missing.json.detail);
    }
  });

  it("console routes", { timeout: 120_000 }, async () => {
    const PROBE: Record<string, string> = { "/api/auth/{nextauth}": "/api/auth/session", "/persona-evolution/state": "/persona-evolution/state?user_id=matrix-account" };
    await matrix(CONSOLE_ROUTES, async (entry, who) => {
      const [method, path] = entry.split(" ");
      const r = await call(who.server.baseUrl, who.console, method, PROBE[path] ?? fill(path), method === "GET" ? undefined : {});
      // A route not served answers 404 itself: there the 404 is the outcome.
      return { outcome: observed(r, { found: CONSOLE_ROUTES[entry].includes(404) }), writes: method !== "GET" };
    });
  });

  it("server actions", { timeout: 180_000 }, async () => {
    const byName = new Map(actions.map((a) => [a.name, a]));
    await matrix(ACTION_MATRIX, async (name, who) => ({ outcome: observedAction(await callAction(who.server, who.console, name, validInput(byName.get(name)!.input))), writes: true }));
  });

  it("console pages", { timeout: 180_000 }, async () => {
    await matrix(PAGE_MATRIX, async (page, who) => ({ outcome: observed(await call(who.server.baseUrl, who.console, "GET", fill(page)), { page: true }), writes: false }));
  });
});
