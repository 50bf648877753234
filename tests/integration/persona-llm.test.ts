// Reflection through the app with the real openai client against a loopback
// chat-completions server: a proposal (evidence, tokens, cost), malformed JSON and a timeout
// recorded as failed reviews, and no model call when nothing new was said.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { proposalReply, startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai-persona";
import { act, count, personaRow, postMessages, putAgent } from "../helpers/persona";

const AGENT = "coach";
const GOALS = "Open every explanation with a worked example (QZ-77 marker).";
let fake: FakeOpenAI;
let server: TestServer;
let admin: Caller;
let viewer: Caller;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({
    env: {
      PROCTOR_PERSONA_ACTIONS: "1",
      PROCTOR_LLM_BASE_URL: fake.baseUrl,
      PROCTOR_LLM_API_KEY: "test-key",
      PROCTOR_LLM_MODEL: "persona-test-model",
      PROCTOR_LLM_TIMEOUT_MS: "1500",
      PROCTOR_LLM_INPUT_USD_PER_MTOK: "1",
      PROCTOR_LLM_OUTPUT_USD_PER_MTOK: "4",
    },
  });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "viewer@test.local", "viewer-password-1");
  await putAgent(server, AGENT, "Coach");
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe(`persona reflection with a model (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("turns the model's proposal into a pending suggestion with evidence, tokens, time and cost", async () => {
    const user = "acct-model";
    await postMessages(server, AGENT, user, "t-1", ["Please use concrete examples.", "Examples before definitions, always!"]);
    await postMessages(server, AGENT, user, "t-1", ["Sure, here is an example."], "assistant");
    const before = fake.requests.length;
    fake.queue(proposalReply(GOALS, ["m2"], "The user asked twice for examples first."));
    const r = await act(server, admin, { user_id: user, action: "reflect" });
    expect(r.status, r.text).toBe(200);
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests[before].body;
    expect(sent.model).toBe("persona-test-model");
    expect(sent.max_completion_tokens).toBeGreaterThan(0);
    const prompt = JSON.parse(sent.messages[1].content);
    // Only user-authored messages are evidence, oldest first.
    expect(prompt.messages.map((m: { text: string }) => m.text)).toEqual(["Please use concrete examples.", "Examples before definitions, always!"]);

    const s = r.json;
    expect(s.pending).toMatchObject({ reason: "The user asked twice for examples first.", changes: { goals: { old: "", new: GOALS } } });
    expect(s.pending.evidence).toHaveLength(1);
    expect(s.pending.evidence[0]).toMatchObject({ thread_id: "t-1", agent_id: AGENT, text: "Examples before definitions, always!" });
    expect(s.pending.evidence[0].id).toMatch(/^m_/);
    expect(s.reviews[0]).toMatchObject({
      status: "proposed",
      evidence_count: 2,
      selected_count: 1,
      model: "persona-test-model",
      input_tokens: 420,
      output_tokens: 64,
    });
    expect(s.reviews[0].estimated_cost_usd).toBeCloseTo((420 * 1 + 64 * 4) / 1e6, 12);
    expect(s.reviews[0].duration_ms).toBeGreaterThanOrEqual(0);

    // Approved, then nothing new: the notice and no model call.
    const approved = await act(server, admin, { user_id: user, action: "approve", revision: s.revision, proposal_id: s.pending.id });
    expect(approved.json.persona).toMatchObject({ version: 2, goals: GOALS });
    const calls = fake.requests.length;
    const again = await act(server, admin, { user_id: user, action: "reflect" });
    expect(again.json.notice).toBe("no_new_evidence");
    expect(fake.requests.length).toBe(calls);

    // Traces show the conversation and the review, never the goals or the model's reason.
    const traces = await call(server.baseUrl, viewer, "GET", `/traces?agent_id=${AGENT}&user_id=${user}&thread_id=t-1`);
    expect(traces.status).toBe(200);
    expect(traces.text).toContain("Examples before definitions, always!");
    expect(traces.text).toContain("Persona review");
    expect(traces.text).toContain("persona-test-model");
    expect(traces.text).not.toContain("QZ-77");
    expect(traces.text).not.toContain("asked twice for examples first");
    const reviewThread = await call(server.baseUrl, viewer, "GET", `/traces?user_id=${user}&thread_id=${encodeURIComponent(s.reviews[0].trace.thread_id)}`);
    expect(reviewThread.text).toContain(s.reviews[0].id);
    expect(reviewThread.text).not.toContain("QZ-77");
    // Nor do logs or the audit log.
    expect(server.output()).not.toContain("QZ-77");
    expect(server.output()).not.toContain("Examples before definitions");
    expect(JSON.stringify((await server.sql.query(`SELECT * FROM audit_events`)).rows)).not.toContain("QZ-77");
  });

  it("records malformed model output as a failed review, changes nothing, and reads the same evidence next time", async () => {
    const user = "acct-malformed";
    await postMessages(server, AGENT, user, "t-2", ["I prefer short answers.", "Bullet points help me."]);
    fake.queue({ content: "You should definitely use bullet points!" });
    const failed = await act(server, admin, { user_id: user, action: "reflect" });
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ review_state: "failed", pending: null, persona: { version: 1, goals: "" } });
    expect(failed.json.reviews[0]).toMatchObject({ status: "failed", reason: "The model's answer was not valid JSON.", evidence_count: 2 });
    expect((await personaRow(server, user)).evidence_seq).toBeNull();

    fake.queue(proposalReply("Answer briefly, in bullet points.", ["m1", "m2"]));
    const retried = await act(server, admin, { user_id: user, action: "reflect" });
    expect(retried.json.reviews[1]).toMatchObject({ status: "proposed", evidence_count: 2, selected_count: 2 });
    expect(retried.json.pending.changes.goals.new).toBe("Answer briefly, in bullet points.");
  });

  it("records a model call that outlives its time bound as a failed review", async () => {
    const user = "acct-slow";
    await postMessages(server, AGENT, user, "t-3", ["Quiz me every Friday."]);
    fake.queue({ delayMs: 5000, content: "{}" });
    const r = await act(server, admin, { user_id: user, action: "reflect" });
    expect(r.status).toBe(200);
    expect(r.json.review_state).toBe("failed");
    expect(r.json.reviews[0]).toMatchObject({ status: "failed", reason: "The model call timed out.", model: "persona-test-model" });
    expect(await count(server, "persona_proposals", user)).toBe(0);
    // The review slot is free again.
    expect((await personaRow(server, user)).reviewing_id).toBeNull();
  });
});
