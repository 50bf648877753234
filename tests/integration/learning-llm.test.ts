import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { startFakeOpenAI, type FakeOpenAI, type ChatRequest, type Reply } from "../helpers/fake-openai";
import { fullLifecycle } from "../helpers/lifecycle";
import { admin, cycle, getSkill, postRuns, putAgent } from "../helpers/learning";

const GOOD_SKILL = `---
name: refund-paid-order
description: Use when a customer asks for their money back on an order that was paid.
preconditions:
  - The request names the order to refund
  - The order is paid
tools: [lookup_order, issue_refund]
---
# refund-paid-order

## When to apply
A customer wants a refund for one specific paid order.
When NOT to apply: the refund is not accepted for the order, or the order is not paid.

## Procedure
1. Call \`lookup_order\` with {order_id: string}
2. Call \`issue_refund\` with {order_id: string, amount: number}

## Failure modes observed
- \`issue_refund\` may come back not accepted: tell the customer instead of retrying.

## Worked example
Refund order <order id>: look the order up, then refund <amount>.`;

let fake: FakeOpenAI;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: fake.baseUrl, PROCTOR_LLM_MODEL: "fake-distiller", PROCTOR_LLM_TIMEOUT_MS: "1500" } });
});
afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

const script = (distill: () => Reply, judge: () => Reply) => {
  fake.respond = (req: ChatRequest) => (req.kind === "judge" ? judge() : distill());
};

describe(`continual learning with an LLM over the OpenAI protocol (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("runs the full lifecycle with LLM distillation and judging, feeding v1's recorded outcomes to v2", async () => {
    script(() => ({ content: GOOD_SKILL }), () => ({ content: "YES. It follows the successful runs and handles the refusal." }));
    fake.requests.length = 0;
    const { v1, v2 } = await fullLifecycle(server, "lifecycle-llm", { template: false });
    expect(v1.content).toBe(GOOD_SKILL);
    expect(v2.template_distilled).toBe(false);

    const distills = fake.requests.filter((r) => r.kind === "distill");
    expect(distills).toHaveLength(2);
    expect(distills.every((r) => r.model === "fake-distiller")).toBe(true);
    expect(distills[0].system).toContain("INSUFFICIENT");
    expect(distills[0].prompt).toContain("SUCCESSFUL RUN 5");
    expect(distills[0].prompt).toContain("FAILED RUN 1");
    expect(distills[0].prompt).not.toContain("demoted");
    // The distiller hears what became of v1 from its recorded outcomes, never a reason text.
    expect(distills[1].prompt).toMatch(/Version 1 was demoted after [\d,]+ runs? with it/);
    expect(distills[1].prompt).not.toContain(v1.demotion_reason);
    const judges = fake.requests.filter((r) => r.kind === "judge");
    expect(judges).toHaveLength(2);
    expect(judges[0].prompt).toContain("OBSERVED FAILED RUNS");
    expect(judges[0].prompt).toContain(GOOD_SKILL);
  }, 180_000);

  it("rejects with every reason and stores nothing, keeping the class eligible", async () => {
    await putAgent(server, "scripted");
    const runs = await postRuns(server, "scripted", 5);
    const hash = runs[0].canonical_hash;
    const leakedId = (await server.sql.query("SELECT query FROM workflows WHERE id = $1", [runs[2].id])).rows[0].query.split(" ").pop();

    const attempt = async (distill: () => Reply, judge: () => Reply) => {
      script(distill, judge);
      const before = fake.requests.length;
      const report = await cycle(server, "scripted");
      expect(report.promoted).toEqual([]);
      expect(report.rejected).toHaveLength(1);
      expect(report.rejected[0].canonical_hash).toBe(hash);
      return { reasons: report.rejected[0].reasons as string[], calls: fake.requests.slice(before).map((r) => r.kind) };
    };

    expect(await attempt(() => ({ content: "INSUFFICIENT: the runs disagree" }), () => ({ content: "YES" }))).toEqual({
      reasons: ["distillation returned INSUFFICIENT"],
      calls: ["distill"],
    });
    const leak = await attempt(() => ({ content: GOOD_SKILL.replace("<order id>", leakedId) }), () => ({ content: "YES" }));
    expect(leak).toEqual({ reasons: [`literal value leaked into skill: '${leakedId}'`], calls: ["distill"] });
    expect(await attempt(() => ({ content: GOOD_SKILL }), () => ({ content: "NO (not YES): it ignores refusals." }))).toEqual({
      reasons: ["LLM judge rejected: NO (not YES): it ignores refusals."],
      calls: ["distill", "judge"],
    });
    expect((await attempt(() => ({ content: GOOD_SKILL }), () => ({ content: "YES", delayMs: 5_000 }))).reasons).toEqual(["judge unavailable"]);
    expect((await attempt(() => ({ content: GOOD_SKILL }), () => ({ content: "" }))).reasons).toEqual(["judge unavailable"]);
    expect((await attempt(() => ({ status: 500 }), () => ({ content: "YES" }))).reasons[0]).toMatch(/^distillation failed: /);

    const skills = await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE agent_id = 'scripted'");
    expect(skills.rows[0].n).toBe(0);
    const cls = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/scripted/classes`)).json.classes[0];
    expect(cls.eligible).toBe(true);
    const reports = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/scripted/promotion-cycles?limit=20`)).json.reports;
    expect(reports).toHaveLength(6);

    script(() => ({ content: GOOD_SKILL }), () => ({ content: "YES" }));
    const ok = await cycle(server, "scripted");
    expect(ok.promoted).toHaveLength(1);
    expect(await getSkill(server, ok.promoted[0])).toMatchObject({ status: "active", template_distilled: false, name: "refund-paid-order" });
  }, 120_000);
});
