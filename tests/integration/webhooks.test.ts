// Signed webhooks (README "Webhooks") on the real server: endpoints added, edited and redelivered
// through the console's actions; events written in the transaction of the change (skill
// lifecycle by trigger, readiness from shadow evaluation, a dead job), delivered by the worker
// (run in this process, as shadow-evaluation does, with a short backoff) to a loopback receiver
// that checks each signature with the standardwebhooks package's own Webhook.verify and with a
// plain HMAC: a 500 is retried, a receiver that keeps failing ends failed, events an endpoint
// did not choose never reach it, and no secret reaches audit rows or the server log. Ledger
// decisions (by trigger) and persona proposals are made in-process on the server's database, and
// their payloads carry ids, names and states only: no goal or conversation text.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { claimJobs, enqueueJob, failJob } from "@/lib/jobs/queue";
import { startWorkerRuntime, type WorkerRuntime } from "@/lib/jobs/runtime";
// The worker's handlers: shadow evaluation (readiness) and webhook delivery.
import "@/lib/learning/jobs";
import "@/lib/webhooks/jobs";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, waitFor, WEBHOOK_TEST_TARGETS, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin as adminKey, postRuns } from "../helpers/learning";
import { shadowAgent } from "../helpers/shadow";
import { fixtureEvaluation, fixtureProposal, SCOPE } from "../helpers/ledger";
import { proposeProcedure, recordEvaluation } from "@/lib/ledger/operations";
import { reflectPersona } from "@/lib/persona/operations";
import { accountPseudonym } from "@/lib/persona/audit";
import type { AuditContext } from "@/lib/audit/record";
import { NO_ANSWER } from "@/lib/webhooks/deliver";
import { TARGET_NOT_ALLOWED } from "@/lib/webhooks/url-policy";

type Received = { path: string; headers: IncomingHttpHeaders; body: string; answered: number };

let server: TestServer;
let admin: Caller;
let workerDb: Db;
let worker: WorkerRuntime | null = null;
let receiver: Server;
let base = "";
const received: Received[] = [];
const seenIds = new Set<string>();

/** /flaky answers 500 to a message's first request and 200 after; /down always 503; else 200. */
function answer(path: string, id: string): number {
  if (path === "/down") return 503;
  if (path === "/flaky" && !seenIds.has(id)) {
    seenIds.add(id);
    return 500;
  }
  return 200;
}

const ACTION = "lib/actions/webhooks.ts#";
const addEndpoint = async (input: Record<string, unknown>) => {
  const r = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, input);
  expect(r.kind, JSON.stringify(r.error)).toBe("ok");
  expect(r.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return r.data as { endpoint: { id: string }; secret: string };
};
const deliveries = async (endpointId: string) =>
  (await server.sql.query("SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id", [endpointId])).rows;
const settled = (endpointId: string, event: string) =>
  waitFor(async () => (await deliveries(endpointId)).some((d) => d.event_type === event && d.status !== "PENDING"), 30_000, () => JSON.stringify(received.map((r) => [r.path, r.answered])));
const receivedAt = (path: string) => received.filter((r) => r.path === path);
const events = (path: string) => receivedAt(path).map((r) => JSON.parse(r.body).type as string);

/** Verified twice: by the standardwebhooks package, and by the spec's HMAC over "id.timestamp.body". */
function verify(r: Received, secret: string) {
  const headers = { "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) };
  const parsed = new Webhook(secret).verify(r.body, headers);
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${r.body}`).digest("base64");
  expect(headers["webhook-signature"]).toBe(`v1,${mac}`);
  expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(r.body, headers)).toThrow();
  return parsed as { type: string; timestamp: string; data: Record<string, unknown> };
}

beforeAll(async () => {
  // Read by the delivery handler at each attempt: retries within a second, three attempts in all.
  vi.stubEnv("PROCTOR_WEBHOOK_BACKOFF_MS", "100");
  vi.stubEnv("PROCTOR_WEBHOOK_MAX_ATTEMPTS", "3");
  // The receiver is on loopback: allowed here as the test servers allow it (read at each attempt).
  vi.stubEnv("PROCTOR_WEBHOOK_ALLOWED_TARGETS", WEBHOOK_TEST_TARGETS);
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const code = answer(req.url ?? "", String(req.headers["webhook-id"]));
      received.push({ path: req.url ?? "", headers: req.headers, body, answered: code });
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  workerDb = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await worker?.stop();
  await workerDb?.$disconnect();
  await server?.stop();
  await new Promise((r) => receiver?.close(r));
});

const startWorker = () => (worker = startWorkerRuntime(workerDb, { pollMs: 50 }));
const stopWorker = async () => {
  await worker?.stop();
  worker = null;
};

describe(`webhooks (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  const secrets: string[] = [];
  let flaky: { endpoint: { id: string }; secret: string };
  let other: { endpoint: { id: string }; secret: string };
  let down: { endpoint: { id: string }; secret: string };
  let off: { endpoint: { id: string }; secret: string };
  let skillId = "";

  it("refuses a URL that is not http(s), and writes nothing", async () => {
    for (const url of ["ftp://example.com/hook", "javascript:alert(1)", "file:///etc/passwd", "not a url", ""]) {
      const r = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, { url, events: ["skill.activated"] });
      expect(r.kind, url).toBe("validation_error");
      expect(r.error!.fields![0].path).toBe("/url");
    }
    const none = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, { url: `${base}/x`, events: ["skill.exploded"] });
    expect(none.kind).toBe("validation_error");
    expect((await server.sql.query("SELECT count(*)::int AS n FROM webhook_endpoints")).rows[0].n).toBe(0);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE action LIKE 'webhook%'")).rows[0].n).toBe(0);
  });

  it("writes a delivery with the change, signs it, retries it after a 500, and sends only chosen events", async () => {
    flaky = await addEndpoint({ url: `${base}/flaky`, description: "pager", events: ["skill.shadow_created", "skill.ready_for_review", "skill.activated"] });
    other = await addEndpoint({ url: `${base}/other?token=abc`, events: ["skill.demoted"] });
    down = await addEndpoint({ url: `${base}/down`, events: ["skill.demoted", "job.dead"] });
    off = await addEndpoint({ url: `${base}/off`, events: ["skill.shadow_created"], enabled: false });
    secrets.push(flaky.secret, other.secret, down.secret, off.secret);

    // No worker yet: the promotion cycle's transaction wrote the delivery and its job.
    const { skill } = await shadowAgent(server, "hooks-agent", { shadow_readiness_min_observations: 2 });
    skillId = skill.skill_id;
    const queued = await deliveries(flaky.endpoint.id);
    expect(queued.map((d) => [d.event_type, d.status])).toEqual([["skill.shadow_created", "PENDING"]]);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhook.deliver' AND payload->>'delivery_id' = $1", [queued[0].id])).rows[0].n).toBe(1);
    expect(await deliveries(off.endpoint.id)).toEqual([]);
    expect(await deliveries(other.endpoint.id)).toEqual([]);

    startWorker();
    await settled(flaky.endpoint.id, "skill.shadow_created");
    const tries = receivedAt("/flaky");
    expect(tries.map((r) => r.answered)).toEqual([500, 200]);
    expect(tries[1].headers["webhook-id"]).toBe(queued[0].id);
    expect(tries[0].headers["webhook-id"]).toBe(queued[0].id);
    expect(tries[0].headers["content-type"]).toBe("application/json");
    for (const r of tries) {
      const msg = verify(r, flaky.secret);
      expect(msg).toMatchObject({ type: "skill.shadow_created", data: { skill_id: skillId, agent_id: "hooks-agent", name: skill.name, version: 1, status: "shadow" } });
    }
    const [row] = await deliveries(flaky.endpoint.id);
    expect(row).toMatchObject({ status: "DELIVERED", attempts: 2, response_code: 200, last_error: null });
    expect(row.attempt_log.map((a: { response_code: number }) => a.response_code)).toEqual([500, 200]);

    // Readiness met by the second matching run (shadow evaluation), announced once.
    await postRuns(server, "hooks-agent", 3);
    await settled(flaky.endpoint.id, "skill.ready_for_review");
    expect((await deliveries(flaky.endpoint.id)).filter((d) => d.event_type === "skill.ready_for_review")).toHaveLength(1);

    const activated = await call(server.baseUrl, adminKey, "POST", `/api/v1/skills/${skillId}/activate`, { reason: "reviewed" });
    expect(activated.status, activated.text).toBe(200);
    await settled(flaky.endpoint.id, "skill.activated");
    const demoted = await call(server.baseUrl, adminKey, "POST", `/api/v1/skills/${skillId}/demote`, { reason: "test" });
    expect(demoted.status, demoted.text).toBe(200);
    await settled(other.endpoint.id, "skill.demoted");

    expect(new Set(events("/flaky"))).toEqual(new Set(["skill.shadow_created", "skill.ready_for_review", "skill.activated"]));
    const toOther = receivedAt("/other?token=abc");
    expect(toOther.map((r) => r.answered)).toEqual([200]);
    expect(verify(toOther[0], other.secret)).toMatchObject({ type: "skill.demoted", data: { skill_id: skillId, status: "demoted" } });
    expect(receivedAt("/off")).toEqual([]);
  });

  it("marks a delivery failed after its last attempt, with each attempt's response code", async () => {
    await settled(down.endpoint.id, "skill.demoted");
    const [row] = await deliveries(down.endpoint.id);
    expect(row).toMatchObject({ status: "FAILED", attempts: 3, response_code: 503, last_error: "HTTP 503" });
    expect(row.attempt_log.map((a: { response_code: number }) => a.response_code)).toEqual([503, 503, 503]);
    expect(receivedAt("/down").map((r) => r.headers["webhook-id"])).toEqual([row.id, row.id, row.id]);

    // A job the runtime gives up on (failJob past its attempts) is announced as job.dead.
    await enqueueJob(workerDb, { kind: "webhooks-test.never", agentId: "hooks-agent", payload: {} });
    const [job] = await claimJobs(workerDb, ["webhooks-test.never"], 1);
    await failJob(workerDb, job, "boom", 1);
    await waitFor(async () => (await deliveries(down.endpoint.id)).some((d) => d.event_type === "job.dead"), 10_000);
    const dead = (await deliveries(down.endpoint.id)).find((d) => d.event_type === "job.dead");
    expect(dead.payload.data).toEqual({ job_id: String(job.id), kind: "webhooks-test.never", agent_id: "hooks-agent", attempts: 1 });
  });

  it("redelivers a message with the same id and a fresh signature, counting its requests; not while it is queued", async () => {
    await stopWorker();
    const [first] = await deliveries(flaky.endpoint.id);
    const r = await callAction(server, admin, `${ACTION}redeliverWebhook`, { delivery_id: first.id });
    expect(r.kind, JSON.stringify(r.error)).toBe("ok");
    expect(r.data).toMatchObject({ id: first.id, status: "pending", attempts: 2 });
    expect((await callAction(server, admin, `${ACTION}redeliverWebhook`, { delivery_id: first.id })).kind).toBe("invalid_state");
    expect((await callAction(server, admin, `${ACTION}redeliverWebhook`, { delivery_id: "msg_nothing" })).kind).toBe("not_found");

    const before = receivedAt("/flaky").length;
    startWorker();
    await waitFor(async () => (await deliveries(flaky.endpoint.id)).find((d) => d.id === first.id)!.status === "DELIVERED", 20_000);
    const again = receivedAt("/flaky").slice(before);
    expect(again.map((x) => [x.headers["webhook-id"], x.answered])).toEqual([[first.id, 200]]);
    verify(again[0], flaky.secret);
    const row = (await deliveries(flaky.endpoint.id)).find((d) => d.id === first.id);
    // Every request counted on the row: two in the first round, one in the redelivery's.
    expect(row).toMatchObject({ attempts: 3, round_attempts: 1, status: "DELIVERED" });
    expect(row.attempt_log.map((a: { response_code: number }) => a.response_code)).toEqual([500, 200, 200]);
  });

  it("gives a failed delivery's redelivery a round of attempts of its own, every request counted", async () => {
    const [failed] = await deliveries(down.endpoint.id);
    const requests = () => receivedAt("/down").filter((x) => x.headers["webhook-id"] === failed.id).length;
    expect(requests()).toBe(3);
    const r = await callAction(server, admin, `${ACTION}redeliverWebhook`, { delivery_id: failed.id });
    expect(r.kind, JSON.stringify(r.error)).toBe("ok");
    await waitFor(async () => (await deliveries(down.endpoint.id)).find((d) => d.id === failed.id)!.status === "FAILED", 20_000);
    expect(requests()).toBe(6);
    const row = (await deliveries(down.endpoint.id)).find((d) => d.id === failed.id);
    expect(row).toMatchObject({ attempts: 6, round_attempts: 3 });
    expect(row.attempt_log).toHaveLength(6);
  });

  it("edits and rotates an endpoint; audit rows and the log hold no secret, the row only its ciphertext", async () => {
    const edited = await callAction(server, admin, `${ACTION}updateWebhookEndpoint`, { id: other.endpoint.id, url: "gopher://x", events: ["skill.demoted"] });
    expect(edited.kind).toBe("validation_error");
    const ok = await callAction(server, admin, `${ACTION}updateWebhookEndpoint`, { id: other.endpoint.id, url: `${base}/other?token=abc`, events: ["skill.activated"], enabled: false });
    expect(ok.kind, JSON.stringify(ok.error)).toBe("ok");
    const rotated = await callAction(server, admin, `${ACTION}rotateWebhookSecret`, { id: flaky.endpoint.id });
    expect(rotated.kind).toBe("ok");
    expect(rotated.data.secret).not.toBe(flaky.secret);
    secrets.push(rotated.data.secret);
    expect((await callAction(server, admin, `${ACTION}deleteWebhookEndpoint`, { id: off.endpoint.id })).kind).toBe("ok");
    expect(await deliveries(off.endpoint.id)).toEqual([]);

    const audit = (await server.sql.query("SELECT action, target_id, details FROM audit_events WHERE action LIKE 'webhook%' ORDER BY id")).rows;
    expect(audit.map((a) => a.action)).toEqual([
      ...Array(4).fill("webhook_endpoint.created"),
      "webhook_delivery.redelivered",
      "webhook_delivery.redelivered",
      "webhook_endpoint.updated",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.deleted",
    ]);
    // The URL's query (it may carry a token) is not audited.
    expect(audit[1].details.url).toBe(`${base}/other`);
    const stored = (await server.sql.query("SELECT id, secret_ciphertext FROM webhook_endpoints")).rows;
    const everything = JSON.stringify((await server.sql.query("SELECT * FROM audit_events")).rows) + server.output();
    for (const s of secrets) {
      const body = s.slice("whsec_".length);
      expect(everything).not.toContain(body);
      for (const row of stored) expect(row.secret_ciphertext).not.toContain(body);
    }
    expect(stored.every((r) => r.secret_ciphertext.startsWith("v1."))).toBe(true);
  });

  it("announces ledger qualification and suspension and persona proposals with ids and states, never goal or message text", async () => {
    const hook = await addEndpoint({ url: `${base}/decisions`, events: ["ledger_procedure.qualified", "ledger_procedure.suspended", "persona_proposal.created"] });
    // A procedure qualified by its 32 cases, then suspended by one bad monitoring case (streak 1).
    await proposeProcedure(workerDb, { scope: SCOPE, ...fixtureProposal({}, { max_failure_streak: 1 }) });
    for (let k = 0; k < 32; k++) await recordEvaluation(workerDb, SCOPE, "procedure-1", fixtureEvaluation(k) as never);
    await recordEvaluation(workerDb, SCOPE, "procedure-1", fixtureEvaluation(32, "monitoring", { candidate_utility: 0 }) as never);
    // A persona proposal from an account's messages (the offline reflector reads the goal).
    const user = "acct-hooks";
    const goal = "My goal is to read Rust error messages.";
    await workerDb.agent.upsert({ where: { id: "tutor" }, create: { id: "tutor", name: "Tutor bot" }, update: {} });
    await workerDb.conversationMessage.create({ data: { agentId: "tutor", threadId: "t-hooks", userId: user, messageId: "m-hooks", role: "user", text: goal, timestamp: new Date() } });
    const by: AuditContext = { actor: { type: "user", id: "u-admin", label: ADMIN_EMAIL, role: "ADMIN" }, requestId: "req-hooks", clientHash: null };
    const reflected = await reflectPersona(workerDb, { userId: user, trigger: "manual" }, by);
    expect(reflected.review_state).toBe("proposed");

    for (const event of ["ledger_procedure.qualified", "ledger_procedure.suspended", "persona_proposal.created"]) await settled(hook.endpoint.id, event);
    const messages = receivedAt("/decisions").map((r) => verify(r, hook.secret));
    const of = (type: string) => messages.filter((m) => m.type === type).map((m) => m.data);
    const procedure = { tenant: SCOPE.tenant, agent: SCOPE.agent, environment: SCOPE.environment, procedure_id: "procedure-1" };
    expect(of("ledger_procedure.qualified")).toEqual([{ ...procedure, from_state: "candidate", to_state: "active", triggering_case: "case-31" }]);
    expect(of("ledger_procedure.suspended")).toEqual([{ ...procedure, from_state: "active", to_state: "suspended", triggering_case: "case-32" }]);
    const review = (await server.sql.query("SELECT id, review_id FROM persona_proposals WHERE user_id = $1", [user])).rows[0];
    expect(of("persona_proposal.created")).toEqual([{ proposal_id: review.id, review_id: review.review_id, agent_id: "tutor", account: await accountPseudonym(workerDb, user) }]);
    // Private text stays out: the goal, the message, the proposed goals, the account's own id.
    const proposed = (await server.sql.query("SELECT goals_new FROM persona_proposals WHERE id = $1", [review.id])).rows[0].goals_new as string;
    expect(proposed).not.toBe("");
    const bodies = receivedAt("/decisions").map((r) => r.body).join("\n");
    for (const secret of [goal, proposed, user, "Rust"]) expect(bodies).not.toContain(secret);
  });

  it("refuses internal addresses when an endpoint is saved and again at delivery, and shows no network detail", async () => {
    const endpoints = async () => (await server.sql.query("SELECT count(*)::int AS n FROM webhook_endpoints")).rows[0].n;
    const count = await endpoints();
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/", "http://10.0.0.1:5432/", "http://[fd00::1]/", "http://[::ffff:10.0.0.1]/"]) {
      const r = await callAction(server, admin, `${ACTION}createWebhookEndpoint`, { url, events: ["job.dead"] });
      expect(r.kind, url).toBe("validation_error");
      expect(r.error!.fields![0].path).toBe("/url");
      const edit = await callAction(server, admin, `${ACTION}updateWebhookEndpoint`, { id: down.endpoint.id, url, events: ["job.dead"] });
      expect(edit.kind, url).toBe("validation_error");
    }
    expect(await endpoints()).toBe(count);
    expect((await server.sql.query("SELECT url FROM webhook_endpoints WHERE id = $1", [down.endpoint.id])).rows[0].url).toBe(`${base}/down`);

    // A closed port answers nothing; the error does not say how (refused, reset, timed out).
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const silent = await addEndpoint({ url: `http://127.0.0.1:${closedPort}/`, events: ["job.dead"] });
    const jobDies = async () => {
      await enqueueJob(workerDb, { kind: "webhooks-test.never", agentId: "hooks-agent", payload: {} });
      const [job] = await claimJobs(workerDb, ["webhooks-test.never"], 1);
      await failJob(workerDb, job, "boom", 1);
    };
    await jobDies();
    await settled(silent.endpoint.id, "job.dead");

    // Saved while loopback is allowed, then delivered by a worker whose policy allows no internal
    // address (as when a name resolves elsewhere at delivery than when it was saved).
    await stopWorker();
    const rebound = await addEndpoint({ url: `http://localhost:${new URL(base).port}/rebound`, events: ["job.dead"] });
    vi.stubEnv("PROCTOR_WEBHOOK_ALLOWED_TARGETS", "");
    await jobDies();
    startWorker();
    await settled(rebound.endpoint.id, "job.dead");

    const [unanswered] = await deliveries(silent.endpoint.id);
    expect(unanswered).toMatchObject({ status: "FAILED", attempts: 3, response_code: null, last_error: NO_ANSWER });
    expect(unanswered.attempt_log.map((a: { error: string }) => a.error)).toEqual([NO_ANSWER, NO_ANSWER, NO_ANSWER]);
    const [refused] = await deliveries(rebound.endpoint.id);
    expect(refused).toMatchObject({ status: "FAILED", attempts: 1, response_code: null, last_error: TARGET_NOT_ALLOWED });
    expect(receivedAt("/rebound")).toEqual([]);
    vi.stubEnv("PROCTOR_WEBHOOK_ALLOWED_TARGETS", WEBHOOK_TEST_TARGETS);
  });
});
