// A reviewer's day in Chromium, keyboard first: reject a shadow skill with a reason; select the
// three per-account skills of one procedure (j/x) and activate them together (a, confirmation
// with one reason); then the activated skill's impact panel compares its class before and after.
import { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_KEY } from "../helpers/server";
import { callAction } from "../helpers/actions";
import { login } from "../helpers/http";
import { expect, signIn, test } from "./fixtures";

const AGENT = "e2e-bulk-bot";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

const runs = (tools: string[], account: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    workflow_id: `e2e-bulk-${tools.join("-")}-${account}-${from + i}`,
    user_id: account,
    query: `Please help with order ${100 + from + i} (${tools.join(", ")})`,
    steps: tools.map((t) => ({ tool: t, arguments: { order_id: `A${from + i}` }, result: { ok: true } })),
    outcome: "success",
  }));

test("reject a shadow skill; bulk-activate a procedure's three skills by keyboard; the impact panel after activation", async ({ page, request, server }) => {
  const put = await request.put(`/api/v1/agents/${AGENT}`, {
    headers: auth,
    data: {
      name: "E2E bulk bot",
      tools: [
        { name: "lookup_order", description: "Find an order" },
        { name: "issue_refund", description: "Refund an order" },
        { name: "send_email", description: "Email the customer" },
      ],
      learning: { require_shadow: true, promotion_every_n_runs: 0, learning_scope: "user", max_promotions_per_cycle: 10 },
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  const refund = ["lookup_order", "issue_refund"];
  const email = ["lookup_order", "send_email"];
  const workflows = [...["acct-a", "acct-b", "acct-c"].flatMap((a) => runs(refund, a, 5)), ...runs(email, "acct-d", 5)];
  const sent = await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, { headers: auth, data: { workflows } });
  expect(sent.status()).toBe(207);
  const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const cycle = await callAction(server, admin, "lib/actions/learning.ts#runPromotionCycle", { agent_id: AGENT });
  expect(cycle.kind, cycle.text).toBe("ok");
  expect(cycle.data.report.promoted).toHaveLength(4);

  await page.goto(`/skills?agent=${AGENT}&status=shadow`);
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Skills", level: 1 })).toBeVisible();

  // Reject the send_email skill (acct-d) from its page: the reason is required and not for the agent.
  const emailRow = page.locator("tr[data-row-key]").filter({ hasText: "account acct-d" });
  await emailRow.getByRole("link").first().click();
  const detail = page.locator("#skill-detail");
  await expect(detail).toContainText("acct-d");
  await detail.getByRole("button", { name: "Reject" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Reason (recorded in the audit log, not shown to the agent)")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Reject" })).toBeDisabled();
  await dialog.getByLabel(/^Reason/).fill("emails the customer before the refund is approved");
  await dialog.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByRole("status").filter({ hasText: "was rejected." })).toBeVisible();
  await expect(page.locator("tr[data-row-key]").filter({ hasText: "account acct-d" })).toHaveCount(0);

  // The refund procedure: one group of three, each row naming its account.
  const group = page.locator("tr[data-procedure]");
  await expect(group).toHaveCount(1);
  await expect(group).toContainText("3 skills on this page");
  await expect(page.getByTestId("skill-account")).toHaveText(["· account acct-a", "· account acct-b", "· account acct-c"]);

  // Keyboard only: j selects the first row, x checks it; three times; a asks to activate them.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press("j");
    await expect(page.locator("tr[data-row-key] a[aria-current='true']")).toHaveCount(1);
    await page.keyboard.press("x");
  }
  await expect(page.getByRole("region", { name: "Bulk review" })).toContainText("3 skills selected");
  await page.keyboard.press("a");
  const bulk = page.getByRole("dialog");
  await expect(bulk.getByRole("heading")).toHaveText("Activate 3 skills");
  await expect(bulk).toContainText("3 skills of 1 procedure across 3 accounts");
  await bulk.getByLabel(/^Reason/).fill("same refund procedure, reviewed once");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Activated 3 skills." })).toBeVisible();
  await expect(page.locator("tr[data-row-key]")).toHaveCount(0);
  const audit = await server.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE action = 'skill.activated' AND details->>'reason' = 'same refund procedure, reviewed once'");
  expect(audit.rows[0].n).toBe(3);

  // After activation, more runs of one account's class: the impact panel compares before and after.
  const more = await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, { headers: auth, data: { workflows: runs(refund, "acct-a", 3, 5) } });
  expect(more.status()).toBe(207);
  await page.goto(`/skills?agent=${AGENT}&status=active`);
  await page.locator("tr[data-row-key]").filter({ hasText: "account acct-a" }).getByRole("link").first().click();
  const impact = page.getByTestId("skill-impact");
  await expect(impact).toContainText("Observational");
  const rowOf = (name: string) => impact.getByRole("row", { name: new RegExp(`^${name}`) });
  await expect(rowOf("Runs")).toContainText("5");
  await expect(rowOf("Runs")).toContainText("3");
  await expect(rowOf("Success rate")).toContainText("100%");
  await expect(impact).toContainText("No experiment measures this skill.");
});
