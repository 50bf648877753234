// A console without dead ends, over HTTP on a fresh database: the inbox of a new install says
// what to do first, and is worded for a viewer as a report (no call to an action they cannot
// take); a viewer's account links never lead to the persona page that would refuse them; the
// audit log names an account with a persona and links it (and an experiment to itself) for an
// admin; "Send test event" queues one audited, signed message the worker delivers, and a
// delivery whose every attempt failed appears in the inbox.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { startWorkerRuntime, type WorkerRuntime } from "@/lib/jobs/runtime";
import "@/lib/webhooks/jobs";
import { inboxCounts } from "@/lib/console/inbox";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, waitFor, WEBHOOK_TEST_TARGETS, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { cycle, postRuns, putAgent } from "../helpers/learning";
import { act, postMessages, putAgent as putPersonaAgent } from "../helpers/persona";

const AGENT = "dead-ends-bot";
const ACCOUNT = "acct-dead-ends";
const ACTION = "lib/actions/webhooks.ts#";

let server: TestServer;
let admin: Caller;
let viewer: Caller;
let workerDb: Db;
let worker: WorkerRuntime | null = null;
let receiver: Server;
let base = "";
const received: { path: string; id: string }[] = [];

beforeAll(async () => {
  vi.stubEnv("PROCTOR_WEBHOOK_BACKOFF_MS", "1");
  vi.stubEnv("PROCTOR_WEBHOOK_MAX_ATTEMPTS", "5");
  vi.stubEnv("PROCTOR_WEBHOOK_ALLOWED_TARGETS", WEBHOOK_TEST_TARGETS);
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push({ path: req.url ?? "", id: String(req.headers["webhook-id"]) });
      res.writeHead(req.url === "/down" ? 503 : 204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({ env: { PROCTOR_WORKER: "0", PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@dead-ends.test", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "viewer@dead-ends.test", "viewer-password-1");
  workerDb = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await worker?.stop();
  await workerDb?.$disconnect();
  await server?.stop();
  await new Promise((r) => receiver?.close(r));
});

const home = async (who: Caller) => {
  const r = await call(server.baseUrl, who, "GET", "/");
  expect(r.status).toBe(200);
  return r.text;
};

describe(`console without dead ends (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a fresh install's inbox lists the first steps, for an admin and (without settings links) for a viewer", async () => {
    const a = await home(admin);
    expect(a).not.toContain("All caught up");
    expect(a).toContain("Get started");
    expect(a).toContain("Create an API key");
    expect(a).toContain('href="/settings/api-keys"');
    expect(a).toContain("Register an agent");
    const v = await home(viewer);
    expect(v).toContain("Get started");
    expect(v).not.toContain("All caught up");
    expect(v).not.toContain('href="/settings/api-keys"');
    expect(v).toContain("An admin creates one");
  });

  it("words the inbox for a viewer as a report, never as a call to distill", async () => {
    await putAgent(server, AGENT, { require_shadow: true, learning_scope: "user" });
    await postRuns(server, AGENT, 6, { userId: ACCOUNT });
    const a = await home(admin);
    expect(a).not.toContain("Get started");
    expect(a).toContain("Classes ready to distill");
    expect(a).toContain("no live skill covers: distill them");
    expect(a).toMatch(/1 item awaiting a decision/);
    const v = await home(viewer);
    expect(v).toContain("Classes ready to distill");
    expect(v).not.toContain("no live skill covers: distill them");
    expect(v).toContain("waiting for an admin to distill them");
    expect(v).toMatch(/1 item awaiting an admin(&#x27;|')s decision/);
  });

  it("links an account to its persona page only for a reader of personas", async () => {
    const { rows: [run] } = await server.sql.query("SELECT id FROM workflows WHERE agent_id = $1 LIMIT 1", [AGENT]);
    const persona = `/persona-evolution?user_id=${ACCOUNT}`;
    const asAdmin = await call(server.baseUrl, admin, "GET", `/workflows/runs/${run.id}`);
    expect(asAdmin.text).toContain(`href="${persona}"`);
    const asViewer = await call(server.baseUrl, viewer, "GET", `/workflows/runs/${run.id}`);
    expect(asViewer.status).toBe(200);
    expect(asViewer.text).toContain(ACCOUNT);
    expect(asViewer.text).not.toContain(persona);
    // The traces of the account stay a link: a viewer may open them.
    expect(asViewer.text).toContain(`/traces?agent=${AGENT}&amp;user_id=${ACCOUNT}`);
  });

  it("names and links an account row of the audit log for an admin, and an experiment row to the experiment", async () => {
    await putPersonaAgent(server, "dead-ends-tutor");
    await postMessages(server, "dead-ends-tutor", "acct-tutored", "t-1", ["My goal is to pass the driving test in May."]);
    expect((await act(server, admin, { user_id: "acct-tutored", action: "reflect" })).status).toBe(200);
    const { rows: [audited] } = await server.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE target_type = 'account'");
    expect(audited.n).toBeGreaterThan(0);
    const log = await call(server.baseUrl, admin, "GET", "/audit?target_type=account");
    expect(log.status).toBe(200);
    expect(log.text).toContain('href="/persona-evolution?user_id=acct-tutored"');
    expect(log.text).not.toContain("an account (pseudonymous");

    const skillId = (await cycle(server, AGENT)).promoted[0] as string;
    const created = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/experiments`, { skill_id: skillId, name: "dead ends", model: "m", cases: [{ request: "Refund order Q1", expected_answer: "done" }] });
    expect(created.status, created.text).toBe(201);
    const experiments = await call(server.baseUrl, admin, "GET", "/audit?target_type=experiment");
    expect(experiments.text).toContain(`href="/experiments/${created.json.experiment_id}"`);
  });

  it("sends a test event to an endpoint: audited, delivered by the worker; refused when disabled or for a viewer", async () => {
    const added = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, { url: `${base}/ok`, events: ["skill.activated"] });
    expect(added.kind, JSON.stringify(added.error)).toBe("ok");
    const id = added.data.endpoint.id as string;
    const sent = await callAction(server, admin, `${ACTION}sendTestWebhookEvent`, { id });
    expect(sent.kind, JSON.stringify(sent.error)).toBe("ok");
    expect(sent.data).toMatchObject({ event: "webhook.test", status: "pending" });
    const { rows: audit } = await server.sql.query("SELECT target_id, details FROM audit_events WHERE action = 'webhook_endpoint.test_sent'");
    expect(audit).toEqual([{ target_id: id, details: { delivery_id: sent.data.id } }]);
    worker = startWorkerRuntime(workerDb, { pollMs: 50 });
    await waitFor(async () => received.some((r) => r.id === sent.data.id), 30_000);
    expect(received.find((r) => r.id === sent.data.id)!.path).toBe("/ok");
    await waitFor(async () => (await server.sql.query("SELECT status FROM webhook_deliveries WHERE id = $1", [sent.data.id])).rows[0].status === "DELIVERED", 30_000);

    expect((await callAction(server, viewer, `${ACTION}sendTestWebhookEvent`, { id })).kind).toBe("forbidden");
    const off = await callAction(server, admin, `${ACTION}updateWebhookEndpoint`, { id, url: `${base}/ok`, events: ["skill.activated"], enabled: false });
    expect(off.kind).toBe("ok");
    const refused = await callAction(server, admin, `${ACTION}sendTestWebhookEvent`, { id });
    expect(refused.kind).toBe("invalid_state");
    expect((await server.sql.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1", [id])).rows[0].n).toBe(1);
  });

  it("shows a delivery that failed every attempt in the inbox, with where to redeliver it", async () => {
    const added = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, { url: `${base}/down`, events: ["skill.activated"] });
    const id = added.data.endpoint.id as string;
    const sent = await callAction(server, admin, `${ACTION}sendTestWebhookEvent`, { id });
    await waitFor(async () => (await server.sql.query("SELECT status FROM webhook_deliveries WHERE id = $1", [sent.data.id])).rows[0].status === "FAILED", 30_000);
    expect(received.filter((r) => r.id === sent.data.id)).toHaveLength(5);
    expect(await inboxCounts(workerDb, () => true)).toMatchObject({ failed_webhooks: 1 });
    const a = await home(admin);
    expect(a).toContain("Failed webhook deliveries");
    expect(a).toContain("1 webhook.test message failed");
    expect(a).toContain('href="/settings/webhooks"');
    expect(await home(viewer)).not.toContain("Failed webhook deliveries");
  });
});
