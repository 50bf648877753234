// The review pages in Chromium, with data sent through the API: an ineligible class shows
// its failing gate and no Distill button; Distill now on an eligible class → the report names
// the new shadow skill → open it → Activate as developer with a reason → Active, developer,
// the class Covered with its runs suppressed, the audit log has it → Demote with a reason →
// Demoted, runs released. Keyboard shortcuts, 375 px and 1440 px (screenshots), dark mode, and
// a viewer who sees no actions and is refused by their endpoints.
import type { Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD } from "../helpers/server";
import { callAction } from "../helpers/actions";
import { expect, test, signIn, snapshot } from "./fixtures";

const AGENT = "e2e-review-bot";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };
const VIEWER = { email: "viewer@review.test", password: "viewer-password-42" };

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

function run(i: number, tools: string[], outcome: "success" | "failure" = "success") {
  return {
    workflow_id: `e2e-review-${tools.length}-${tools.join("-")}-${i}`,
    query: `Please help with order ${100 + i} (${tools.join(", ")})`,
    steps: tools.map((t) => ({ tool: t, arguments: { order_id: `A${i}` }, result: { ok: true } })),
    outcome,
  };
}

test("an admin reviews classes, distills, activates as developer and demotes; a viewer cannot act", async ({ page, request, server }) => {
  const put = await request.put(`/api/v1/agents/${AGENT}`, {
    headers: auth,
    data: {
      name: "E2E review bot",
      tools: [
        { name: "lookup_order", description: "Find an order" },
        { name: "issue_refund", description: "Refund an order" },
        { name: "send_email", description: "Email the customer" },
      ],
      learning: { require_shadow: true, promotion_every_n_runs: 0 },
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  const refund = ["lookup_order", "issue_refund"];
  const email = ["lookup_order", "send_email"];
  const workflows = [
    ...[0, 1, 2, 3, 4].map((i) => run(i, refund)),
    run(5, refund, "failure"),
    run(6, email),
    run(7, email),
  ];
  const sent = await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, { headers: auth, data: { workflows } });
  expect(sent.status()).toBe(207);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows?agent=${AGENT}`);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page.getByRole("heading", { name: "Workflows", exact: true })).toBeVisible();
  const summary = page.getByRole("definition").filter({ hasText: /^8$/ });
  await expect(summary.first()).toBeVisible();

  // The ineligible class: its executions chip fails (detail on hover) and it has no Distill button.
  const emailRow = page.locator("tr", { has: page.getByRole("link", { name: "lookup_order → send_email" }) });
  const chip = emailRow.locator('[data-gate="executions"]:visible');
  await expect(chip).toHaveAttribute("data-passed", "false");
  await expect(chip).toHaveAttribute("title", "Executions: 2 / 5 runs");
  await emailRow.getByRole("link", { name: "lookup_order → send_email" }).click();
  const detail = page.locator("#class-detail");
  await expect(detail.getByRole("heading", { name: "lookup_order → send_email" })).toBeVisible();
  await expect(detail.locator('[data-gate="executions"]')).toContainText("2 / 5 runs");
  await expect(detail.locator('[data-gate="executions"]')).toHaveAttribute("data-passed", "false");
  await expect(detail.getByRole("button", { name: "Distill now" })).toHaveCount(0);
  await expect(detail.getByRole("button", { name: "Run promotion cycle" })).toBeVisible();
  await expect(page).toHaveURL(/class=/);

  // Keyboard: k moves the selection up to the ready class (the URL follows), / focuses the filter.
  await page.keyboard.press("k");
  await expect(detail.getByRole("heading", { name: "lookup_order → issue_refund" })).toBeVisible();
  await page.keyboard.press("/");
  await expect(page.getByRole("searchbox", { name: "Filter by tool, hash or query" })).toBeFocused();
  await page.keyboard.type("j");
  await expect(detail.getByRole("heading", { name: "lookup_order → issue_refund" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Filter by tool, hash or query" }).fill("");

  await snapshot(page, `workflows-desktop.png`);

  // Distill now: the report appears in place, naming the new shadow skill.
  await expect(detail.getByText("Ready to distill")).toBeVisible();
  await detail.getByRole("button", { name: "Distill now" }).click();
  const report = detail.getByRole("article", { name: "Distill now report" });
  await expect(report.getByText("Skills created (1)")).toBeVisible();
  await expect(report.getByText("shadow", { exact: true })).toBeVisible();
  await expect(detail.getByText("In review").first()).toBeVisible();
  await expect(detail.getByRole("button", { name: "Distill now" })).toHaveCount(0);
  const skillLink = report.getByRole("link", { name: /v1$/ });
  const skillName = (await skillLink.textContent())!.replace(/ v1$/, "");

  // Open the skill and activate it as developer, with a reason.
  await skillLink.click();
  await expect(page).toHaveURL(/\/skills\?.*skill=/);
  const skillId = new URL(page.url()).searchParams.get("skill")!;
  const panel = page.locator("#skill-detail");
  await expect(panel.getByRole("heading", { name: `${skillName} v1` })).toBeVisible();
  await expect(panel.getByText("shadow", { exact: true })).toBeVisible();
  await expect(panel.getByText("No observations yet.")).toBeVisible();

  // Paired-evaluation qualification: the SKILL.md goes to the evidence ledger; the skill stays in shadow.
  await panel.getByRole("button", { name: "Start paired-evaluation qualification" }).click();
  const qualify = page.getByRole("dialog");
  await qualify.getByLabel("Model the agent runs on").fill("gpt-4o-2024-08-06");
  await qualify.getByLabel(/^Reason \(recorded in the audit log/).fill("Causal evidence before activation");
  await qualify.getByRole("button", { name: "Start qualification" }).click();
  await expect(qualify).toBeHidden();
  await expect(page.getByText(/^Paired-evaluation qualification of .* started\.$/)).toBeVisible();
  // Shown with the skill's readiness and again in its impact panel's causal evidence.
  await expect(panel.getByText("ledger: candidate").first()).toBeVisible();
  await expect(panel.getByText("0 / 128").first()).toBeVisible();
  await expect(panel.getByRole("link", { name: "Open the ledger procedure" }).first()).toHaveAttribute("href", /^\/ledger\/procedure\?/);
  await expect(panel.getByRole("button", { name: "Start paired-evaluation qualification" })).toHaveCount(0);

  await expect(panel.getByRole("button", { name: "Activate as user" })).toBeVisible();
  await panel.getByRole("button", { name: "Activate as developer" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Paired-evaluation qualification", { exact: true })).toBeVisible();
  await expect(dialog.getByText("ledger: candidate")).toBeVisible();
  await expect(dialog.getByText(/Developer authority: the skill is injected as a developer/)).toBeVisible();
  await expect(dialog.getByText(/^Shadow readiness is not met/)).toBeVisible();
  await dialog.getByLabel(/^Reason \(recorded in the audit log/).fill("Procedure reviewed line by line");
  await dialog.getByRole("button", { name: "Activate as developer" }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByText("active", { exact: true })).toBeVisible();
  await expect(panel.getByText("authority: developer")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Demote" })).toBeVisible();
  await expect(panel.getByRole("list", { name: "Audit entries" })).toContainText("Procedure reviewed line by line");
  await snapshot(page, `skills-desktop.png`);

  // The class is covered and its runs are suppressed.
  await panel.getByRole("link", { name: /…$/ }).click();
  await expect(detail.getByText("Covered", { exact: true }).first()).toBeVisible();
  await expect(detail.getByRole("list", { name: "Runs of this class" }).getByText("Suppressed")).toHaveCount(6);

  // The audit log has the decision.
  await page.goto(`/audit?target=${skillId}`);
  const auditRow = page.getByRole("row", { name: /skill\.activated/ });
  await expect(auditRow).toContainText(ADMIN_EMAIL);

  // Demote with a reason: demoted, runs released.
  await page.goto(`/skills?agent=${AGENT}&skill=${skillId}`);
  await panel.getByRole("button", { name: "Demote" }).click();
  await dialog.getByLabel(/^Reason \(recorded in the audit log/).fill("Superseded by a policy change");
  await dialog.getByRole("button", { name: "Demote" }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByText("demoted", { exact: true }).first()).toBeVisible();
  await expect(panel.getByRole("note")).toContainText("Superseded by a policy change");
  await panel.getByRole("link", { name: /…$/ }).click();
  await expect(detail.getByText("Needs more evidence").first()).toBeVisible();
  await expect(detail.getByRole("list", { name: "Runs of this class" }).getByText("Suppressed")).toHaveCount(0);
  await expect(detail.getByText(/was demoted/)).toContainText("Superseded by a policy change");

  // 375 px: no horizontal scrolling on either page; dark mode too.
  await page.setViewportSize({ width: 375, height: 800 });
  await noHorizontalScroll(page);
  await snapshot(page, `workflows-mobile.png`);
  await page.goto(`/skills?agent=${AGENT}`);
  await expect(panel).toBeVisible();
  await noHorizontalScroll(page);
  await snapshot(page, `skills-mobile.png`);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await snapshot(page, `skills-desktop-dark.png`);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).not.toHaveClass(/dark/);

  // The learning settings page: every group, and the authority rule in the browser.
  await page.goto(`/agents/${AGENT}/settings`);
  await expect(page.getByText("template distiller in use")).toBeVisible();
  for (const legend of ["Review and authority", "Ingestion and outcomes", "Gates", "Distillation and validation", "Shadow evaluation", "Injection and retrieval", "Monitoring", "Ledger"]) {
    await expect(page.getByRole("group", { name: legend })).toBeVisible();
  }

  // A viewer: the pages without actions, and the actions refuse them.
  const asSession = async () => ({ headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; "), origin: server.baseUrl } });
  const created = await callAction(server, await asSession(), "lib/actions/users.ts#createUser", { ...VIEWER, role: "VIEWER" });
  expect(created.kind).toBe("ok");
  await page.getByRole("button", { name: `Account: ${ADMIN_EMAIL}` }).click();
  await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`/workflows?agent=${AGENT}`);
  await signIn(page, VIEWER.email, VIEWER.password);
  await expect(detail).toBeVisible();
  await expect(page.getByRole("button", { name: /Distill now|Run promotion cycle/ })).toHaveCount(0);
  await page.goto(`/skills?agent=${AGENT}&skill=${skillId}`);
  await expect(panel).toBeVisible();
  await expect(page.getByRole("button", { name: /Activate as|Demote/ })).toHaveCount(0);
  await page.goto(`/agents/${AGENT}/settings`);
  await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
  const viewer = await asSession();
  const refused = [
    await callAction(server, viewer, "lib/actions/learning.ts#distillClass", { agent_id: AGENT, canonical_hash: "0".repeat(64), user_id: null }),
    await callAction(server, viewer, "lib/actions/learning.ts#runPromotionCycle", { agent_id: AGENT }),
    await callAction(server, viewer, "lib/actions/learning.ts#saveLearningSettings", { agent_id: AGENT, learning: {} }),
    await callAction(server, viewer, "lib/actions/skills.ts#activateSkill", { skill_id: skillId, injection_role: "developer", reason: "viewer" }),
    await callAction(server, viewer, "lib/actions/skills.ts#demoteSkill", { skill_id: skillId, reason: "viewer" }),
  ];
  expect(refused.map((r) => r.kind)).toEqual(["forbidden", "forbidden", "forbidden", "forbidden", "forbidden"]);
  const agentApi = [
    await page.request.post(`/api/v1/skills/${skillId}/activate`, { data: { injection_role: "developer", reason: "viewer" } }),
    await page.request.post(`/api/v1/skills/${skillId}/demote`, { data: { reason: "viewer" } }),
  ];
  expect(agentApi.map((r) => r.status())).toEqual([403, 403]);
});
