// Persona evolution end to end over HTTP with the deterministic reflector (no model
// configured): the audited page and action route, CAS on revision, pause, undo, the approved
// persona API, daily review by the worker, access control and the reference's 400s.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { act, auditRows, breakAuditLog, count, personaRow, postMessages, putAgent, viewPage, viewState } from "../helpers/persona";

const CONFLICT = "This action could not be applied. Reload the profile; it may have changed or be paused.";
const AGENT = "tutor";
let server: TestServer;
let admin: Caller;
let viewer: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "viewer@test.local", "viewer-password-1");
  await putAgent(server, AGENT);
});
afterAll(async () => {
  await server?.stop();
});

describe(`persona evolution actions (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("reflects into a suggestion, approves it, undoes it and pauses, with CAS on every step", async () => {
    const user = "acct-flow";
    await postMessages(server, AGENT, user, "thread-1", [
      "Hi there",
      "My goal is to pass the B2 Spanish exam.",
      '<script>alert("private")</script> I want to read novels in Spanish.',
    ]);
    const start = await viewState(server, admin, user);
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({ user_id: user, agent_id: AGENT, revision: 0, pending: null, persona: { version: 1, goals: "" } });

    const reflected = await act(server, admin, { user_id: user, action: "reflect" });
    expect(reflected.status, reflected.text).toBe(200);
    expect(reflected.headers.get("cache-control")).toContain("no-store");
    const s1 = reflected.json;
    expect(s1.review_state).toBe("proposed");
    expect(s1.persona.version).toBe(1);
    expect(s1.pending.changes.goals).toEqual({ old: "", new: "Pass the B2 Spanish exam\nRead novels in Spanish" });
    expect(s1.pending.evidence.map((e: { thread_id: string }) => e.thread_id)).toEqual(["thread-1", "thread-1"]);
    expect(s1.pending.evidence[1].text).toContain('<script>alert("private")</script>');
    expect(s1.reviews).toHaveLength(1);
    expect(s1.reviews[0]).toMatchObject({ status: "proposed", trigger: "manual", evidence_count: 3, selected_count: 2, model: "deterministic" });
    expect(s1.reviews[0].trace.thread_id).toBe(`persona-review:${s1.reviews[0].id}`);

    // The page renders the suggestion escaped, with evidence links into the thread's trace.
    const page = await viewPage(server, admin, user);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.text).toContain("Suggested adaptation · not applied");
    expect(page.text).toContain("Version 1");
    expect(page.text).toContain("Approve for next turn");
    expect(page.text).toContain("/traces?agent_id=tutor&amp;user_id=acct-flow&amp;thread_id=thread-1#trace-timeline");
    expect(page.text).toContain("&lt;script&gt;alert(");
    expect(page.text).not.toContain('<script>alert("private")</script>');

    // One suggestion at a time; a stale revision or another proposal id is refused.
    expect((await act(server, admin, { user_id: user, action: "reflect" })).status).toBe(409);
    const stale = await act(server, admin, { user_id: user, action: "approve", revision: s1.revision - 1, proposal_id: s1.pending.id });
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toBe(CONFLICT);
    expect((await act(server, admin, { user_id: user, action: "approve", revision: s1.revision, proposal_id: "other" })).status).toBe(409);

    const approved = await act(server, admin, { user_id: user, action: "approve", revision: s1.revision, proposal_id: s1.pending.id });
    expect(approved.status, approved.text).toBe(200);
    const s2 = approved.json;
    expect(s2).toMatchObject({ pending: null, revision: s1.revision + 1, review_state: "approved" });
    expect(s2.persona).toMatchObject({ version: 2, goals: "Pass the B2 Spanish exam\nRead novels in Spanish" });
    expect(s2.persona.evolution_history).toHaveLength(1);
    expect(s2.persona.evolution_history[0]).toMatchObject({
      version: 2,
      action: "applied",
      actor_id: `operator:${ADMIN_EMAIL}`,
      review_id: s1.reviews[0].id,
      changes: { goals: { old: "", new: "Pass the B2 Spanish exam\nRead novels in Spanish" } },
    });
    expect(s2.reviews[0].status).toBe("approved");

    // Nothing new since the review: the notice, no review, no model call, nothing changed.
    const again = await act(server, admin, { user_id: user, action: "reflect" });
    expect(again.status).toBe(200);
    expect(again.json.notice).toBe("no_new_evidence");
    expect(again.json.revision).toBe(s2.revision);
    expect(again.json.reviews).toHaveLength(1);

    const undone = await act(server, admin, { user_id: user, action: "undo", revision: s2.revision });
    expect(undone.status).toBe(200);
    const s3 = undone.json;
    expect(s3.persona).toMatchObject({ version: 3, goals: "" });
    expect(s3.persona.evolution_history[1]).toMatchObject({
      version: 3,
      action: "undo",
      changes: { goals: { old: "Pass the B2 Spanish exam\nRead novels in Spanish", new: "" } },
    });
    // The only approved change is undone: back at v1's goals, there is nothing left to undo.
    expect((await act(server, admin, { user_id: user, action: "undo", revision: s3.revision })).status).toBe(409);

    // Paused: no reflection, no approval, no dismissal (persona-undo-pause.test.ts covers these refusals in full).
    await postMessages(server, AGENT, user, "thread-2", ["I want to learn guitar chords."]);
    const s4 = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    expect(s4.pending.changes.goals.new).toBe("Learn guitar chords");
    const paused = await act(server, admin, { user_id: user, action: "pause", revision: s4.revision, paused: true });
    expect(paused.json.paused).toBe(true);
    const s5 = paused.json;
    expect((await act(server, admin, { user_id: user, action: "approve", revision: s5.revision, proposal_id: s5.pending.id })).status).toBe(409);
    await postMessages(server, AGENT, user, "thread-2", ["I want to learn scales too."]);
    expect((await act(server, admin, { user_id: user, action: "reflect" })).status).toBe(409);
    expect((await act(server, admin, { user_id: user, action: "dismiss", revision: s5.revision, proposal_id: s5.pending.id })).status).toBe(409);
    const resumed = await act(server, admin, { user_id: user, action: "pause", revision: s5.revision, paused: false });
    expect(resumed.json.paused).toBe(false);
    const dismissed = await act(server, admin, { user_id: user, action: "dismiss", revision: resumed.json.revision, proposal_id: s5.pending.id });
    expect(dismissed.status).toBe(200);
    expect(dismissed.json).toMatchObject({ pending: null, review_state: "dismissed", persona: { version: 3 } });

    // The page now offers Resume-free controls and no Undo (no approved change is left to undo).
    const after = await viewPage(server, admin, user);
    expect(after.text).toContain("Version 3");
    expect(after.text).not.toContain("Undo last change");
    expect(after.text).toContain("The latest 50 changes and reflection attempts are retained.");
  });

  it("starts a stored persona from evidence alone when an admin first pauses it", async () => {
    const user = "acct-fresh";
    await postMessages(server, AGENT, user, "t-f", ["Hello"]);
    expect(await personaRow(server, user)).toBeNull();
    expect((await viewState(server, admin, user)).json).toMatchObject({ revision: 0, persona: { persona_id: null, version: 1 } });
    expect((await act(server, admin, { user_id: user, action: "undo", revision: 0 })).status).toBe(409);
    expect(await personaRow(server, user)).toBeNull();
    const paused = await act(server, admin, { user_id: user, action: "pause", revision: 0, paused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json).toMatchObject({ revision: 1, paused: true, persona: { version: 1, name: "Tutor bot" } });
    expect(paused.json.persona.persona_id).toMatch(/^prs_/);
  });

  it("lets exactly one of two racing approvals of one revision win", async () => {
    const user = "acct-race";
    await postMessages(server, AGENT, user, "t-race", ["My goal is to win the race."]);
    const s = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    const body = { user_id: user, action: "approve", revision: s.revision, proposal_id: s.pending.id };
    const results = await Promise.all([act(server, admin, body), act(server, admin, body), act(server, admin, body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await count(server, "persona_history", user)).toBe(1);
    expect((await personaRow(server, user)).version).toBe(2);
  });

  it("returns only the approved persona to agents, with a keyed-hash reference", async () => {
    const user = "acct-api";
    const api = (path: string) => call(server.baseUrl, withKey(ADMIN_KEY), "GET", path);
    expect((await api(`/api/v1/accounts/${user}/persona`)).status).toBe(404);
    await postMessages(server, AGENT, user, "t-api", ["I want to master SQL window functions."]);
    const s = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    // A pending suggestion is not a persona.
    expect((await api(`/api/v1/accounts/${user}/persona`)).status).toBe(404);
    await act(server, admin, { user_id: user, action: "approve", revision: s.revision, proposal_id: s.pending.id });
    const r = await api(`/api/v1/accounts/${user}/persona?agent_id=${AGENT}`);
    expect(r.status).toBe(200);
    const personaId = (await personaRow(server, user)).persona_id;
    expect(r.json).toMatchObject({ persona_id: personaId, version: 2, goals: "Master SQL window functions", role: "Learning partner" });
    expect(r.json.reference).toMatchObject({ resource_type: "memory", version: "2", role: "persona_style" });
    expect(r.json.reference.ref).toMatch(/^persona:[0-9a-f]{32}$/);
    expect(r.json.reference.ref).not.toBe(`persona:${createHash("sha256").update(personaId).digest("hex").slice(0, 32)}`);
    expect(JSON.stringify(r.json.reference)).not.toContain("SQL");
    expect(r.json).not.toHaveProperty("pending");
    expect((await api(`/api/v1/accounts/${user}/persona?agent_id=another-agent`)).status).toBe(404);
    expect((await call(server.baseUrl, anonymous, "GET", `/api/v1/accounts/${user}/persona`)).status).toBe(401);
  });

  it.each([
    { action: "pause", revision: 2, paused: "false" },
    { action: "schedule", revision: 2, daily_enabled: 1 },
    { action: "pause", revision: true, paused: false },
    { action: "undo", revision: -1 },
    { action: "approve", revision: 2, proposal_id: null },
    { action: "dismiss", revision: 2, proposal_id: "" },
    { action: [] },
    { action: {} },
    { action: null },
    { action: 4 },
    { action: true },
    { action: "explode" },
    { action: "reflect", actor_id: "operator:mallory" },
  ])("refuses %j with 400 before anything is audited or changed", async (values) => {
    const before = (await auditRows(server)).length;
    const r = await act(server, admin, { user_id: "acct-flow", ...values });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("validation_error");
    expect((await auditRows(server)).length).toBe(before);
  });

  it("refuses oversized, streamed, malformed and invalid-account bodies (413 over 4,096 bytes, else the reference's messages)", async () => {
    const before = (await auditRows(server)).length;
    const big = JSON.stringify({ user_id: "acct-flow", action: "reflect", proposal_id: "x".repeat(5000) });
    const sized = await act(server, admin, big);
    expect(sized.status).toBe(413);
    expect(sized.json.code).toBe("payload_too_large");
    // No content-length: the body arrives as a stream and is cut off at 4,096 bytes.
    const chunks = [new TextEncoder().encode(" ".repeat(2048)), new TextEncoder().encode(" ".repeat(2049))];
    const streamed = await fetch(`${server.baseUrl}/persona-evolution/action`, {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (const ch of chunks) c.enqueue(ch);
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await act(server, admin, "{not json")).json.detail).toBe("Invalid persona action");
    expect((await act(server, admin, { user_id: " ", action: "reflect" })).json.detail).toBe("A valid account ID is required");
    expect((await act(server, admin, { user_id: "x".repeat(129), action: "reflect" })).status).toBe(400);
    expect((await auditRows(server)).length).toBe(before);
    // An account with neither persona nor conversations: audited, then not found.
    expect((await act(server, admin, { user_id: "acct-nobody", action: "reflect" })).status).toBe(404);
  });

  it("refuses cross-origin actions, viewers and anonymous callers; the operator comes from the session", async () => {
    const user = "acct-origin";
    await postMessages(server, AGENT, user, "t-o", ["I want to learn Rust lifetimes."]);
    const before = (await auditRows(server)).length;
    const evil = await act(server, admin, { user_id: user, action: "reflect" }, { origin: "https://evil.invalid" });
    expect(evil.status).toBe(403);
    expect((await act(server, viewer, { user_id: user, action: "reflect" })).status).toBe(403);
    expect((await viewState(server, viewer, user)).status).toBe(403);
    const viewerPage = await viewPage(server, viewer, user);
    expect(viewerPage.status).toBe(403);
    expect(viewerPage.text).not.toContain("Learn Rust lifetimes");
    expect((await act(server, anonymous, { user_id: user, action: "reflect" })).status).not.toBe(200);
    expect((await viewPage(server, anonymous, user)).status).toBe(307);
    // An agent's API key is not a console operator.
    expect((await act(server, withKey(ADMIN_KEY), { user_id: user, action: "reflect" })).status).not.toBe(200);
    expect((await auditRows(server)).length).toBe(before);
    expect(await count(server, "persona_reviews", user)).toBe(0);

    const same = await act(server, admin, { user_id: user, action: "reflect" }, { origin: server.baseUrl });
    expect(same.status).toBe(200);
    const rows = await auditRows(server, "persona_reflection.requested");
    const mine = rows[rows.length - 1];
    const adminId = (await server.sql.query(`SELECT id FROM users WHERE email = $1`, [ADMIN_EMAIL])).rows[0].id;
    expect(mine.actor_id).toBe(adminId);
    expect(same.json.reviews[0]).toMatchObject({ trigger: "manual" });
    expect((await server.sql.query(`SELECT actor_id FROM persona_reviews WHERE user_id = $1`, [user])).rows[0].actor_id).toBe(`operator:${ADMIN_EMAIL}`);
  });

  it("audits every view and action with a keyed account pseudonym and no private text", async () => {
    await postMessages(server, AGENT, "acct-audit-one", "t-a", ["I want to keep this sentence private."]);
    const before = (await auditRows(server)).length;
    for (const user of ["acct-audit-one", "acct-audit-one", "acct-audit-two"]) {
      expect((await viewPage(server, admin, user)).status).toBe(200);
    }
    const views = (await auditRows(server)).slice(before);
    expect(views.map((v) => v.action)).toEqual(["persona_profile.viewed", "persona_profile.viewed", "persona_profile.viewed"]);
    expect(views[0].target_type).toBe("account");
    expect(views[0].target_id).toMatch(/^account:[0-9a-f]{16}$/);
    expect(views[0].target_id).toBe(views[1].target_id);
    expect(views[1].target_id).not.toBe(views[2].target_id);
    const s = (await act(server, admin, { user_id: "acct-audit-one", action: "reflect" })).json;
    await act(server, admin, { user_id: "acct-audit-one", action: "approve", revision: s.revision, proposal_id: s.pending.id });
    const all = JSON.stringify((await server.sql.query(`SELECT * FROM audit_events`)).rows);
    for (const secret of ["acct-audit-one", "acct-audit-two", "acct-flow", "keep this sentence private", "Keep this sentence private", "Spanish", "guitar"]) {
      expect(all).not.toContain(secret);
    }
    const approve = (await auditRows(server, "persona_proposal.approved")).at(-1)!;
    expect(approve.details).toEqual({ revision: s.revision, proposal_id: s.pending.id });
    expect(approve.target_id).toBe(views[0].target_id);
    // Nor does the server log carry it.
    expect(server.output()).not.toContain("keep this sentence private");
  });

  it("answers 503 on reads and actions when the audit log cannot be written, and changes nothing", async () => {
    const user = "acct-audit-down";
    await postMessages(server, AGENT, user, "t-d", ["My goal is to survive outages."]);
    const s = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    const restore = await breakAuditLog(server);
    try {
      const read = await viewState(server, admin, user);
      expect(read.status).toBe(503);
      expect(read.json.detail).toBe("Audited persona access is unavailable");
      const page = await viewPage(server, admin, user);
      expect(page.text).toContain("Audited persona access is unavailable");
      expect(page.text).not.toContain("Survive outages");
      for (const body of [
        { user_id: user, action: "approve", revision: s.revision, proposal_id: s.pending.id },
        { user_id: user, action: "pause", revision: s.revision, paused: true },
        { user_id: user, action: "dismiss", revision: s.revision, proposal_id: s.pending.id },
        { user_id: "acct-new-during-outage", action: "reflect" },
      ]) {
        const r = await act(server, admin, body);
        expect(r.status).toBe(503);
        expect(r.json.detail).toBe("Audited persona access is unavailable");
      }
    } finally {
      await restore();
    }
    const row = await personaRow(server, user);
    expect(row).toMatchObject({ revision: s.revision, version: 1, paused: false });
    expect(await count(server, "persona_history", user)).toBe(0);
    expect((await server.sql.query(`SELECT status FROM persona_proposals WHERE user_id = $1`, [user])).rows).toEqual([{ status: "PENDING" }]);
    expect(await personaRow(server, "acct-new-during-outage")).toBeNull();
    expect((await viewState(server, admin, user)).status).toBe(200);
  });

  it("runs opt-in daily review in the worker: only 24 h after the last review and only with new messages", async () => {
    const user = "acct-daily";
    await postMessages(server, AGENT, user, "t-day", ["I want to read one paper a week."]);
    const s = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    const d = (await act(server, admin, { user_id: user, action: "dismiss", revision: s.revision, proposal_id: s.pending.id })).json;
    const enabled = await act(server, admin, { user_id: user, action: "schedule", revision: d.revision, daily_enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.json.daily_enabled).toBe(true);
    const lastReview = Date.parse(enabled.json.last_review_at);
    expect(Date.parse(enabled.json.next_daily_check_at)).toBe(lastReview + 24 * 3600_000);
    const jobs = async () =>
      (await server.sql.query(`SELECT id, run_after FROM jobs WHERE kind = 'persona_daily_review' AND status = 'PENDING' AND payload->>'user_id' = $1`, [user])).rows;
    expect(await jobs()).toHaveLength(1);

    // A day passes and the account writes again: the worker reflects; the result waits for approval.
    await postMessages(server, AGENT, user, "t-day", ["My goal is to write a survey paper."]);
    await server.sql.query(`UPDATE account_personas SET last_review_at = last_review_at - interval '25 hours' WHERE user_id = $1`, [user]);
    await server.sql.query(`UPDATE jobs SET run_after = now() WHERE kind = 'persona_daily_review' AND status = 'PENDING' AND payload->>'user_id' = $1`, [user]);
    await waitFor(async () => (await personaRow(server, user)).last_daily_outcome === "proposed", 30_000, () => server.output());
    const daily = (await viewState(server, admin, user)).json;
    expect(daily.pending.changes.goals.new).toContain("Write a survey paper");
    expect(daily.persona.version).toBe(1);
    expect(daily.reviews.at(-1)).toMatchObject({ trigger: "daily", status: "proposed" });
    expect(Date.parse(daily.next_daily_check_at)).toBe(Date.parse(daily.last_review_at) + 24 * 3600_000);
    expect(await jobs()).toHaveLength(1);
    expect((await auditRows(server, "persona_reflection.requested")).filter((r) => r.details.trigger === "daily").length).toBe(1);

    // Due again but nothing new was said: no review, just the next check.
    await act(server, admin, { user_id: user, action: "dismiss", revision: daily.revision, proposal_id: daily.pending.id });
    await server.sql.query(`UPDATE account_personas SET last_review_at = last_review_at - interval '25 hours' WHERE user_id = $1`, [user]);
    await server.sql.query(`UPDATE jobs SET run_after = now() WHERE kind = 'persona_daily_review' AND status = 'PENDING' AND payload->>'user_id' = $1`, [user]);
    await waitFor(async () => (await personaRow(server, user)).last_daily_outcome === "no_new_messages", 30_000, () => server.output());
    expect(await count(server, "persona_reviews", user)).toBe(2);
    expect(await jobs()).toHaveLength(1);

    const off = await viewState(server, admin, user);
    const disabled = await act(server, admin, { user_id: user, action: "schedule", revision: off.json.revision, daily_enabled: false });
    expect(disabled.json).toMatchObject({ daily_enabled: false, next_daily_check_at: null });
    expect(await jobs()).toHaveLength(0);
  });
});
