// The access matrix: every agent operation (from the contract), console route (from app/),
// server action (from lib/actions) and console page (from app/(console)) against every principal
// of access-matrix.ts, compared with that file's expected outcomes. A route, action or page the
// table lacks fails the completeness checks; a refused write must leave every table as it was.
import fc from "fast-check";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { callAction, type ActionCall } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { agentBoundKey, expiredKey } from "../helpers/keys";
import { conforming } from "../helpers/fuzz-inputs";
import { changedTables, rowCounter, type RowCounts } from "../helpers/row-counts";
import type { Scope } from "../../lib/auth/access";
import { agentOperations, consoleActions, consolePages, routeHandlers, type ConsoleAction } from "../helpers/surfaces";
import {
  ACTIONS,
  AGENT_OPERATIONS,
  CONSOLE_ROUTES,
  PAGES,
  PRINCIPALS,
  READ_ONLY_ENV,
  SERVER_ENV,
  agentOutcome,
  consoleOutcome,
  type Outcome,
  type Principal,
} from "./access-matrix";

/** Who calls, on which server: the agent API and the console may take different credentials. */
type Calling = { server: TestServer; agent: Caller; console: Caller; counts: () => Promise<RowCounts> };

let main: TestServer;
let readOnly: TestServer;
let principals: Partial<Record<Principal, Calling>>;
let actions: ConsoleAction[];

/** The fixtures' ids a probe fills path parameters with (entities may not exist: access comes first). */
const FILL: Record<string, string> = { agent_id: "matrix-agent", agentId: "matrix-agent", id: "matrix-1", skill_id: "matrix-skill", canonical_hash: "matrix-hash", user_id: "matrix-account", case_id: "matrix-case" };
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => FILL[name] ?? "matrix");

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
  actions = await consoleActions();
});
afterAll(async () => {
  await main?.stop();
  await readOnly?.stop();
});

type Reply = { status: number; headers: Headers; json: any };

/** What a response means for access; anything else (a 5xx, a refusal without a problem body) is named as is. */
function observed(r: Reply, page: boolean, otlp = false): Outcome | string {
  const location = r.headers.get("location");
  if (r.status >= 300 && r.status < 400 && location && new URL(location, "http://x").pathname === "/login") return "login";
  if (r.status >= 500) return `error ${r.status}`;
  if (r.status !== 401 && r.status !== 403) return "allowed";
  // The OTLP export refuses with google.rpc.Status bodies ({code, message}) as its protocol says.
  const refusal = otlp ? typeof r.json?.code === "number" : r.headers.get("content-type")?.includes("application/problem+json");
  if (!page && !refusal) return `${r.status} without ${otlp ? "an OTLP Status" : "problem+json"}`;
  if (r.status === 401) return "unauthenticated";
  return /read-only/i.test(r.json?.detail ?? r.json?.message ?? "") ? "read_only" : "forbidden";
}

function observedAction(r: ActionCall): Outcome | string {
  if (r.kind === "unauthorized") return "unauthenticated";
  if (r.kind === "forbidden") return /read-only/i.test(r.error?.message ?? "") ? "read_only" : "forbidden";
  if (r.kind === "rejected" || r.kind === "unavailable") return `error ${r.httpStatus} ${r.kind}`;
  return "allowed";
}

/**
 * Waits (up to 10 s) until no job is running or due within two seconds: work an allowed probe started (an OTLP
 * export's assembly, a shadow evaluation) must land before the next probe's counts are taken.
 */
async function jobsSettled(server: TestServer) {
  const busy = async () => (await server.sql.query("SELECT count(*)::int AS n FROM jobs WHERE status = 'RUNNING' OR (status = 'PENDING' AND run_after < now() + interval '2 seconds')")).rows[0].n > 0;
  for (let waited = 0; waited < 10_000 && (await busy()); waited += 100) await new Promise((r) => setTimeout(r, 100));
}

/** Runs `probe` for every entry and principal; a refused write must change no table's row count. */
async function matrix(entries: string[], expected: (entry: string, p: Principal) => Outcome, probe: (entry: string, who: Calling, p: Principal) => Promise<{ outcome: Outcome | string; writes: boolean }>) {
  const want: Record<string, Partial<Record<Principal, string>>> = {};
  const got: Record<string, Partial<Record<Principal, string>>> = {};
  const wrote: string[] = [];
  for (const entry of entries) {
    want[entry] = {};
    got[entry] = {};
    for (const p of PRINCIPALS) {
      const who = principals[p];
      if (!who) continue;
      want[entry][p] = expected(entry, p);
      await jobsSettled(who.server);
      const before = await who.counts();
      const { outcome, writes } = await probe(entry, who, p);
      got[entry][p] = outcome;
      if (writes && outcome !== "allowed") {
        const changed = changedTables(before, await who.counts());
        if (changed.length) wrote.push(`${p} ${entry} (${outcome}) changed ${changed.join(", ")}`);
      }
    }
  }
  expect(got).toEqual(want);
  expect(wrote).toEqual([]);
}

const agentScope: Record<string, Scope | "public"> = Object.fromEntries(
  (Object.entries(AGENT_OPERATIONS) as [Scope | "public", string[]][]).flatMap(([scope, ids]) => ids.map((id) => [id, scope])),
);

describe(`access matrix (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("the table covers every agent operation, route handler, server action and console page, and nothing else", () => {
    const opIds = agentOperations.map((o) => o.id).sort();
    expect(Object.values(AGENT_OPERATIONS).flat().sort()).toEqual(opIds);
    // Each operation declares the scope the table says (a route with the wrong scope is caught here and below).
    expect(Object.fromEntries(agentOperations.map((o) => [o.id, o.auth === "none" ? "public" : o.access]))).toEqual(Object.fromEntries(opIds.map((id) => [id, agentScope[id]])));
    const contract = new Set(agentOperations.map((o) => `${o.method} ${o.path}`));
    const handlers = routeHandlers().map((h) => `${h.method} ${h.path}`);
    expect(handlers.filter((h) => !contract.has(h)).sort()).toEqual(Object.keys(CONSOLE_ROUTES).sort());
    expect([...contract].filter((c) => !handlers.includes(c))).toEqual([]);
    expect(Object.fromEntries(actions.map((a) => [a.name, a.scope]))).toEqual(ACTIONS);
    expect(consolePages().sort()).toEqual(Object.keys(PAGES).sort());
  });

  it("every principal of the table is made", () => {
    expect(PRINCIPALS.filter((p) => !principals[p])).toEqual([]);
  });

  it("agent API operations", { timeout: 180_000 }, async () => {
    const ops = new Map(agentOperations.map((o) => [o.id, o]));
    await matrix(
      [...ops.keys()],
      (id, p) => agentOutcome(id, agentScope[id], ops.get(id)!.path, p),
      async (id, who) => {
        const op = ops.get(id)!;
        const query = validInput(op.query) as Record<string, unknown> | undefined;
        const qs = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : "";
        const body = op.method === "GET" ? undefined : (validInput(op.body, id) ?? {});
        const r = await call(who.server.baseUrl, who.agent, op.method, fill(op.path) + (qs ? `?${qs}` : ""), body);
        return { outcome: observed(r, false, op.errors === "otlp"), writes: op.method !== "GET" };
      },
    );
  });

  it("console routes", { timeout: 120_000 }, async () => {
    const tested = Object.entries(CONSOLE_ROUTES).filter(([, rule]) => typeof rule === "string" || rule.everyone !== "untested");
    const PROBE: Record<string, string> = { "/api/auth/{nextauth}": "/api/auth/session", "/persona-evolution/state": "/persona-evolution/state?user_id=matrix-account" };
    await matrix(
      tested.map(([entry]) => entry),
      (entry, p) => {
        const rule = CONSOLE_ROUTES[entry];
        // not_found for everyone who may send a body (checked below); an anonymous body is refused unread.
        if (typeof rule !== "string") return p === "anonymous" ? "unauthenticated" : "allowed";
        return rule === "public" ? "allowed" : consoleOutcome(rule, p, "route");
      },
      async (entry, who, p) => {
        const [method, path] = entry.split(" ");
        const r = await call(who.server.baseUrl, who.console, method, PROBE[path] ?? fill(path), method === "GET" ? undefined : {});
        if (typeof CONSOLE_ROUTES[entry] !== "string" && p !== "anonymous") expect(r.status, `${entry}: ${JSON.stringify(r.json)}`).toBe(404);
        return { outcome: observed(r, false), writes: method !== "GET" };
      },
    );
  });

  it("server actions", { timeout: 180_000 }, async () => {
    const byName = new Map(actions.map((a) => [a.name, a]));
    await matrix(
      Object.keys(ACTIONS),
      (name, p) => consoleOutcome(ACTIONS[name], p, "action"),
      async (name, who) => ({ outcome: observedAction(await callAction(who.server, who.console, name, validInput(byName.get(name)!.input))), writes: true }),
    );
  });

  it("console pages", { timeout: 180_000 }, async () => {
    await matrix(
      Object.keys(PAGES),
      (page, p) => consoleOutcome(PAGES[page], p, "page"),
      async (page, who) => ({ outcome: observed(await call(who.server.baseUrl, who.console, "GET", fill(page)), true), writes: false }),
    );
  });
});
