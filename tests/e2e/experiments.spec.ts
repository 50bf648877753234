// An experiment in Chromium: from a shadow skill's page, "Measure this skill" → the create form
// (cases pasted as YAML, the seed's three arms by default) → the report page, whose three checks
// pass once the agent reported a case in every arm. Screenshot at 1440 px.
import { ADMIN_KEY } from "../helpers/server";
import { expect, signIn, test, snapshot } from "./fixtures";

const AGENT = "e2e-experiment-bot";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };
const PATH = ["lookup_order", "issue_refund"];
const CASES = `- case_id: refund-a
  request: Refund order 7, it arrived broken
  expected_path: [lookup_order, issue_refund]
- case_id: refund-b
  request: Refund order 8
  expected_path: [lookup_order, issue_refund]
  expected_answer: Refunded order 8`;

test("an admin measures a shadow skill from its page and reads the report", async ({ page, request }) => {
  const put = await request.put(`/api/v1/agents/${AGENT}`, {
    headers: auth,
    data: { name: "E2E experiment bot", tools: PATH.map((name) => ({ name, description: name })), learning: { require_shadow: true, promotion_every_n_runs: 0 } },
  });
  expect(put.status(), await put.text()).toBe(200);
  for (let i = 0; i < 5; i++) {
    const r = await request.post(`/api/v1/agents/${AGENT}/workflows`, { headers: auth, data: { workflow_id: `exp-learn-${i}`, query: `Refund order E${i}`, steps: PATH.map((tool) => ({ tool, arguments: { order_id: `E${i}` } })), outcome: "success" } });
    expect(r.status(), await r.text()).toBe(201);
  }
  const cycle = await request.post(`/api/v1/agents/${AGENT}/promotion-cycles`, { headers: auth });
  const skillId = (await cycle.json()).promoted[0] as string;

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/skills?agent=${AGENT}&skill=${skillId}`);
  await signIn(page);
  await page.getByRole("link", { name: "Measure this skill" }).click();
  await expect(page).toHaveURL(/\/experiments\/new\?skill=/);
  await page.getByLabel("Model label").fill("gpt-e2e");
  await page.getByLabel(/Held-out cases/).fill(CASES);
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/exp_/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await expect(page.getByText("reported / expected", { exact: false })).toBeVisible();
  await expect(page.locator("[data-check]")).toHaveCount(3);

  for (const arm of ["baseline", "skill_user", "skill_developer"]) {
    const ctx = await request.post(`/api/v1/experiments/${id}/context`, { headers: auth, data: { case_id: "refund-b", arm } });
    expect(ctx.status(), await ctx.text()).toBe(200);
    const run = await request.post(`/api/v1/experiments/${id}/runs`, {
      headers: auth,
      data: { case_id: "refund-b", arm, steps: PATH.map((tool) => ({ tool })), answer: "Refunded order 8", prompt_tokens: 500, completion_tokens: 40, llm_calls: 2, inference_ms: 700, end_to_end_ms: 900 },
    });
    expect(run.status(), await run.text()).toBe(201);
  }
  await page.reload();
  await expect(page.locator("[data-check]").getByText("pass", { exact: true })).toHaveCount(3);
  await expect(page.getByRole("note").filter({ hasText: "not a general claim" })).toBeVisible();
  await snapshot(page, `experiment-report-desktop.png`);
});
