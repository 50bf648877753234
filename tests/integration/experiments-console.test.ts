// The experiments console against the real server: an admin creates an experiment through the
// server action, the agent serves each arm's context and reports runs through the agent API, and
// the report page and its CSV / JSON exports show figures equal to a recount from the stored
// rows, with the seed's three checks passing, and each case's counterbalanced arm order. A
// viewer cannot create; bad input is refused with a readable message and writes nothing;
// cancelling asks for a reason and is audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { admin as adminKey } from "../helpers/learning";
import { shadowAgent } from "../helpers/shadow";

let server: TestServer;
let admin: Caller;
let viewer: Caller;
let skillId: string;
const AGENT = "exp-console-agent";
const CREATE = "lib/actions/experiments.ts#createExperiment";
const CANCEL = "lib/actions/experiments.ts#cancelExperiment";
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&amp;/g, "&").replace(/&#x27;/g, "'");
const experiments = async () => (await server.sql.query("SELECT count(*)::int AS n FROM experiments")).rows[0].n as number;

const PATH = ["lookup_order", "issue_refund"];
const cases = [
  { case_id: "refund-1", request: "Refund order 1, it arrived broken", expected_path: PATH, expected_answer: "Refunded order 1" },
  { case_id: "refund-2", request: "Refund order 2", expected_path: PATH, expected_answer: "refunded order 2", answer_match: "normalized" },
  { case_id: "refund-3", request: "Refund order 3 please", expected_path: PATH },
];
const input = (over: Record<string, unknown> = {}) => ({ agent_id: AGENT, skill_id: skillId, name: "Refund skill, three arms", model: "gpt-test", bootstrap_seed: 11, cases, ...over });

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "exp-viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "exp-viewer@test.local", "viewer-password-1");
  skillId = (await shadowAgent(server, AGENT, { shadow_evaluation_enabled: false })).skill.skill_id;
});
afterAll(async () => {
  await server?.stop();
});

describe(`experiments console (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses a viewer and bad input with readable messages, writing nothing", async () => {
    expect((await callAction(server, viewer, CREATE, input())).kind).toBe("forbidden");
    const noCases = await callAction(server, admin, CREATE, input({ cases: [] }));
    expect(noCases.kind).toBe("validation_error");
    expect(noCases.error?.fields?.[0].path).toBe("/cases");
    const badArm = await callAction(server, admin, CREATE, input({ arms: [{ name: "baseline", mode: "raw_workflows" }, { name: "x", mode: "skill_admin" }] }));
    expect(badArm.kind).toBe("validation_error");
    expect(badArm.error?.fields?.[0].path).toBe("/arms/1/mode");
    const noExpectation = await callAction(server, admin, CREATE, input({ cases: [{ request: "hi" }] }));
    expect(noExpectation.error?.fields?.[0].message).toBe("a case needs expected_path, expected_answer or both");
    const otherAgent = await callAction(server, admin, CREATE, input({ agent_id: "someone-else" }));
    expect(otherAgent.kind, otherAgent.text).not.toBe("ok");
    expect(await experiments()).toBe(0);
  });

  it("creates through the action; the page and the exports equal a recount of the reported runs", async () => {
    const created = await callAction(server, admin, CREATE, input());
    expect(created.kind, created.text).toBe("ok");
    const id: string = created.data.experiment_id;
    expect(created.data.progress).toEqual({ expected: 9, reported: 0 });

    // The agent's side: every (case, arm) context, then a run. The skill arms follow the path;
    // the baseline misses it on refund-2 and spends more tokens.
    for (const [i, c] of cases.entries()) {
      for (const [j, arm] of ["baseline", "skill_user", "skill_developer"].entries()) {
        const ctx = await call(server.baseUrl, adminKey, "POST", `/api/v1/experiments/${id}/context`, { case_id: c.case_id, arm });
        expect(ctx.status, ctx.text).toBe(200);
        const wrong = arm === "baseline" && c.case_id === "refund-2";
        const run = await call(server.baseUrl, adminKey, "POST", `/api/v1/experiments/${id}/runs`, {
          case_id: c.case_id,
          arm,
          steps: (wrong ? ["lookup_order", "send_email"] : PATH).map((tool) => ({ tool })),
          answer: c.expected_answer ? (wrong ? "Sorry" : c.expected_answer) : null,
          prompt_tokens: 1000 - 300 * Math.min(j, 1) + 10 * i + j,
          completion_tokens: 50 + i,
          llm_calls: 2 + (j === 0 ? 1 : 0),
          inference_ms: 800 + 100 * i - 50 * j,
          end_to_end_ms: 1200 + 100 * i,
        });
        expect(run.status, run.text).toBe(201);
      }
    }

    // The recount, straight from the stored rows: per case (one repetition), then the mean over cases.
    const stored = (
      await server.sql.query(
        `SELECT r.case_id, r.arm, r.steps_hash = c.expected_hash AS workflow, r.answer, c.expected_answer, c.answer_match,
                r.prompt_tokens, r.completion_tokens, r.llm_calls, r.end_to_end_ms
           FROM experiment_runs r JOIN experiment_cases c USING (experiment_id, case_id) WHERE r.experiment_id = $1`,
        [id],
      )
    ).rows;
    expect(stored).toHaveLength(9);
    const meanOf = (arm: string, f: (r: (typeof stored)[number]) => number | null) => {
      const xs = stored.filter((r) => r.arm === arm).map(f).filter((v): v is number => v !== null);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const answerOk = (r: (typeof stored)[number]) =>
      r.expected_answer === null ? null : (r.answer_match === "normalized" ? r.answer?.toLowerCase() === r.expected_answer.toLowerCase() : r.answer === r.expected_answer) ? 1 : 0;
    const recount = (arm: string) => ({
      workflow_accuracy: meanOf(arm, (r) => (r.workflow ? 1 : 0)),
      answer_accuracy: meanOf(arm, answerOk),
      combined_accuracy: meanOf(arm, (r) => (r.workflow ? 1 : 0) * (answerOk(r) ?? 1)),
      total_tokens: meanOf(arm, (r) => r.prompt_tokens + r.completion_tokens),
      llm_calls: meanOf(arm, (r) => r.llm_calls),
      end_to_end_ms: meanOf(arm, (r) => r.end_to_end_ms),
    });
    expect(recount("baseline").combined_accuracy).toBeCloseTo(2 / 3);
    expect(recount("skill_user").combined_accuracy).toBe(1);

    const json = await call(server.baseUrl, admin, "GET", `/api/console/experiments/${id}/export?format=json`);
    expect(json.status, json.text).toBe(200);
    const report = json.json;
    for (const arm of ["baseline", "skill_user", "skill_developer"]) {
      const agg = report.aggregates.find((a: { arm: string }) => a.arm === arm).figures;
      for (const [k, v] of Object.entries(recount(arm))) expect(agg[k], `${arm} ${k}`).toBeCloseTo(v, 9);
    }
    const delta = report.deltas.find((d: { arm: string; metric: string }) => d.arm === "skill_user" && d.metric === "total_tokens");
    expect(delta.delta).toBeCloseTo(recount("skill_user").total_tokens - recount("baseline").total_tokens, 9);
    expect(report.checks.map((c: { status: string }) => c.status)).toEqual(["pass", "pass", "pass"]);
    expect(report.progress).toEqual({ expected: 9, served: 9, reported: 9 });

    const csv = await call(server.baseUrl, admin, "GET", `/api/console/experiments/${id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = csv.text.trim().split("\n").map((l: string) => l.split(","));
    const header = lines[0];
    const col = (name: string) => header.indexOf(name);
    expect(lines.filter((l: string[]) => l[0] === "case")).toHaveLength(9);
    const aggRow = lines.find((l: string[]) => l[0] === "aggregate" && l[2] === "baseline")!;
    expect(Number(aggRow[col("total_tokens")])).toBeCloseTo(recount("baseline").total_tokens, 9);
    expect(Number(aggRow[col("combined_accuracy")])).toBeCloseTo(2 / 3, 9);
    const caseRow = lines.find((l: string[]) => l[0] === "case" && l[1] === "refund-2" && l[2] === "baseline")!;
    expect(caseRow[col("workflow_accuracy")]).toBe("0");
    expect(lines.filter((l: string[]) => l[0] === "delta").map((l: string[]) => l[2])).toEqual(["skill_user", "skill_developer"]);
    // Each case's rows carry the arm's place in the case's order and that order; one row's note
    // says whether the arms were counterbalanced.
    expect(report.arm_order.counterbalanced).toBe(true);
    for (const c of report.cases as { case_id: string; arm_order: string[] }[]) {
      expect([...c.arm_order].sort()).toEqual(["baseline", "skill_developer", "skill_user"]);
      const mine = lines.filter((l: string[]) => l[0] === "case" && l[1] === c.case_id);
      expect(mine.map((l: string[]) => [l[2], l[col("arm_position")], l[col("arm_order")]])).toEqual(
        ["baseline", "skill_user", "skill_developer"].map((arm) => [arm, String(c.arm_order.indexOf(arm) + 1), c.arm_order.join(" > ")]),
      );
    }
    expect(report.cases.map((c: { arm_order: string[] }) => c.arm_order[0]).sort()).toEqual(["baseline", "skill_developer", "skill_user"]);
    expect(lines.find((l: string[]) => l[0] === "arm_order")![col("note")]).toBe(report.arm_order.statement);
    expect(report.arm_order.statement).toMatch(/^Arms were counterbalanced: .*bootstrap_seed 11\b/);

    const page = await call(server.baseUrl, admin, "GET", `/experiments/${id}`);
    expect(page.status).toBe(200);
    const html = text(page.text);
    expect(html).toContain(report.caveat);
    expect(html).toContain("Skill arms retrieved zero raw workflows");
    expect((html.match(/data-check="[a-z_]+"/g) ?? []).length).toBe(3);
    expect(html).toContain(`${(recount("baseline").combined_accuracy * 100).toFixed(1)}%`);
    expect(html).toContain(recount("baseline").total_tokens.toFixed(1));
    expect(html).toContain(recount("skill_developer").total_tokens.toFixed(1));
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toContain("refund-2");
    expect(html).toContain("lookup_order → send_email");
    expect(html).toContain(report.arm_order.statement);
    for (const c of report.cases as { arm_order: string[] }[]) expect(html).toContain(`order ${c.arm_order.join(" &gt; ")}`);
    // A viewer reads the report and the exports, without the cancel button.
    const asViewer = await call(server.baseUrl, viewer, "GET", `/experiments/${id}`);
    expect(asViewer.status).toBe(200);
    expect(text(asViewer.text)).not.toContain("Cancel experiment");
    expect((await call(server.baseUrl, viewer, "GET", `/api/console/experiments/${id}/export?format=json`)).status).toBe(200);

    const list = text((await call(server.baseUrl, admin, "GET", `/experiments?agent=${AGENT}`)).text);
    expect(list).toContain("Refund skill, three arms");
    expect(list).toContain("9 / 9");
    expect(text((await call(server.baseUrl, admin, "GET", "/experiments?agent=nobody")).text)).toContain("No experiments match these filters");
  });

  it("cancels with a reason, audited; a second cancel is refused readably", async () => {
    const created = await callAction(server, admin, CREATE, input({ name: "To cancel" }));
    const id: string = created.data.experiment_id;
    expect((await callAction(server, admin, CANCEL, { experiment_id: id, reason: "" })).kind).toBe("validation_error");
    const cancelled = await callAction(server, admin, CANCEL, { experiment_id: id, reason: "wrong model label" });
    expect(cancelled.kind, cancelled.text).toBe("ok");
    expect(cancelled.data.status).toBe("cancelled");
    const audit = await server.sql.query("SELECT details FROM audit_events WHERE action = 'experiment.cancelled' AND target_id = $1", [id]);
    expect(audit.rows[0]?.details.reason).toBe("wrong model label");
    const again = await callAction(server, admin, CANCEL, { experiment_id: id, reason: "again" });
    expect(again.kind).toBe("invalid_state");
    expect(again.error?.message).toContain("cannot be cancelled");
  });
});
