// Persona decisions beyond the reference (multi-step undo; no Dismiss while paused, which the
// reference let through), on both databases since they rest on row locks and revision checks,
// through the published POST /persona-evolution/action route and the console's server action:
// undo walks back one approved version per call down to v1 and is then refused; Approve and
// Dismiss are refused while reflection is paused (409, the reference's wording) and change
// nothing; a 10 MB body is a 413 problem, not a 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { act, auditRows, personaRow, postMessages, putAgent, viewPage } from "../helpers/persona";
import { REASON_REQUIRED, type ActionName } from "@/lib/persona/action-body";

const CONFLICT = "This action could not be applied. Reload the profile; it may have changed or be paused.";
const ACTION = "lib/actions/persona.ts#runPersonaAction";
const AGENT = "tutor";
let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await putAgent(server, AGENT);
});
afterAll(async () => {
  await server?.stop();
});

type State = { revision: number; paused: boolean; pending: { id: string } | null; persona: { version: number; goals: string; evolution_history: { version: number; action: string; change_trigger: { reason: string } }[] } };

/** One persona action through the route (`http`) or the console's server action (`console`): the new state, or the refusal. */
async function decide(via: "http" | "console", body: Record<string, unknown>): Promise<{ ok: true; state: State } | { ok: false; status: number | string; message: string }> {
  if (via === "http") {
    const r = await act(server, admin, body);
    return r.status === 200 ? { ok: true, state: r.json } : { ok: false, status: r.status, message: r.json?.detail };
  }
  // The console asks why before a dismiss or an undo (the route leaves the reason optional).
  const reasoned = REASON_REQUIRED.has(body.action as ActionName) && !("reason" in body) ? { ...body, reason: "Walked back in the undo test" } : body;
  const r = await callAction<State>(server, admin, ACTION, reasoned);
  return r.kind === "ok" ? { ok: true, state: r.data } : { ok: false, status: r.kind, message: r.error?.message ?? r.text };
}

const ok = (r: Awaited<ReturnType<typeof decide>>): State => {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return (r as { state: State }).state;
};

/** A goal stated in a new message, reflected on and approved: the next persona version. */
async function approveGoal(via: "http" | "console", user: string, sentence: string): Promise<State> {
  await postMessages(server, AGENT, user, "t-goals", [sentence]);
  const proposed = ok(await decide(via, { user_id: user, action: "reflect" }));
  expect(proposed.pending, "the reflection proposed a change").not.toBeNull();
  return ok(await decide(via, { user_id: user, action: "approve", revision: proposed.revision, proposal_id: proposed.pending!.id }));
}

describe.each(["http", "console"] as const)(`persona decisions via %s (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, (via) => {
  it("undoes one approved version per call, down to v1, then refuses with the reference's wording", async () => {
    const user = `acct-undo-${via}`;
    const v2 = await approveGoal(via, user, "My goal is to learn SQL joins.");
    const v3 = await approveGoal(via, user, "I want to write window functions.");
    const v4 = await approveGoal(via, user, "I want to tune slow queries.");
    expect([v2, v3, v4].map((s) => s.persona.version)).toEqual([2, 3, 4]);
    expect(v4.persona.goals).toBe("Learn SQL joins\nWrite window functions\nTune slow queries");
    expect((await viewPage(server, admin, user)).text).toContain("Undo last change");

    // Each undo restores the goals of the approved version before the newest one not yet undone.
    const expected = [v3.persona.goals, v2.persona.goals, ""];
    let s = v4;
    for (const [i, goals] of expected.entries()) {
      s = ok(await decide(via, { user_id: user, action: "undo", revision: s.revision }));
      expect(s.persona).toMatchObject({ version: 5 + i, goals });
      expect(s.persona.evolution_history.at(-1)).toMatchObject({ version: 5 + i, action: "undo", change_trigger: { reason: `Undid version ${4 - i}.` } });
    }
    expect((await viewPage(server, admin, user)).text).not.toContain("Undo last change");

    // Back at v1's goals: nothing left to undo; the refusal changes nothing and leaves no audit row.
    const undoneBefore = (await auditRows(server, "persona_change.undone")).length;
    const refused = await decide(via, { user_id: user, action: "undo", revision: s.revision });
    expect(refused).toEqual({ ok: false, status: via === "http" ? 409 : "conflict", message: CONFLICT });
    expect(await personaRow(server, user)).toMatchObject({ revision: s.revision, version: 7, goals: "" });
    expect((await auditRows(server, "persona_change.undone")).length).toBe(undoneBefore);

    // A change approved after the undos is the next one undone; the undone ones stay undone.
    const v8 = await approveGoal(via, user, "I want to read query plans.");
    expect(v8.persona).toMatchObject({ version: 8, goals: "Read query plans" });
    const v9 = ok(await decide(via, { user_id: user, action: "undo", revision: v8.revision }));
    expect(v9.persona).toMatchObject({ version: 9, goals: "" });
    expect((await decide(via, { user_id: user, action: "undo", revision: v9.revision })).ok).toBe(false);
  });

  it("refuses Approve and Dismiss while paused with the reference's wording, changing nothing; both work once resumed", async () => {
    const user = `acct-paused-${via}`;
    await postMessages(server, AGENT, user, "t-p", ["My goal is to learn Go generics."]);
    const proposed = ok(await decide(via, { user_id: user, action: "reflect" }));
    const paused = ok(await decide(via, { user_id: user, action: "pause", revision: proposed.revision, paused: true }));
    expect(paused).toMatchObject({ paused: true, pending: { id: proposed.pending!.id } });

    const before = await auditRows(server);
    for (const action of ["dismiss", "approve"]) {
      const refused = await decide(via, { user_id: user, action, revision: paused.revision, proposal_id: paused.pending!.id });
      expect(refused, action).toEqual({ ok: false, status: via === "http" ? 409 : "conflict", message: CONFLICT });
    }
    expect(await personaRow(server, user)).toMatchObject({ revision: paused.revision, version: 1, goals: "", paused: true, review_state: "PROPOSED" });
    const proposal = await server.sql.query(`SELECT status, decided_at FROM persona_proposals WHERE id = $1`, [paused.pending!.id]);
    expect(proposal.rows).toEqual([{ status: "PENDING", decided_at: null }]);
    // The audit row is written in the refused change's transaction, so it went with it.
    expect((await auditRows(server)).length).toBe(before.length);
    // The page disables both buttons and says why.
    expect((await viewPage(server, admin, user)).text).toContain("Reflection is paused: resume it to approve or dismiss this suggestion.");

    const resumed = ok(await decide(via, { user_id: user, action: "pause", revision: paused.revision, paused: false }));
    const dismissed = ok(await decide(via, { user_id: user, action: "dismiss", revision: resumed.revision, proposal_id: paused.pending!.id }));
    expect(dismissed).toMatchObject({ pending: null, paused: false, persona: { version: 1 } });
  });
});

describe(`persona action body size (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("answers a 10 MB body with 413 problem+json, declared or streamed, before anything is audited", async () => {
    const before = (await auditRows(server)).length;
    const huge = JSON.stringify({ user_id: "acct-big", action: "reflect", proposal_id: "x".repeat(10 * 1024 * 1024) });
    const declared = await fetch(`${server.baseUrl}/persona-evolution/action`, {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: huge,
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("content-type")).toContain("application/problem+json");
    expect(await declared.json()).toMatchObject({ status: 413, code: "payload_too_large" });
    // Over the action's own limit but under the server-wide one: the route's reader refuses it.
    const overAction = await fetch(`${server.baseUrl}/persona-evolution/action`, {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: JSON.stringify({ user_id: "acct-big", action: "reflect", proposal_id: "x".repeat(8 * 1024) }),
    });
    expect(overAction.status).toBe(413);
    expect(await overAction.json()).toMatchObject({ status: 413, code: "payload_too_large", detail: "The request body exceeds 4096 bytes." });

    // Without a content-length the reader stops at the limit.
    const bytes = new TextEncoder().encode(huge);
    const streamed = await fetch(`${server.baseUrl}/persona-evolution/action`, {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.subarray(i, i + 64 * 1024));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ code: "payload_too_large" });
    expect((await auditRows(server)).length).toBe(before);
  });
});
