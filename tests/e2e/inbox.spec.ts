// The console for daily use in Chromium: the review inbox (home) lists a shadow skill → its
// skill page → Activate with a reason → back to the inbox through the sidebar, which no longer
// lists it; Accounts → the account's persona → Reflect → Dismiss asks for a reason → toast →
// the activity list keeps the dismissed suggestion with its goals and reason; an unknown
// address shows the 404 inside the console with a link home. Each flow at 1440 px, and again
// at 375 px (approving, whose reason is optional). Screenshots: tests/e2e/artifacts/inbox-*.png.
import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_KEY } from "../helpers/server";
import { allowConsoleError, clickUntilVisible, expect, test, signIn as signInAs, snapshot } from "./fixtures";

const auth = { authorization: `Bearer ${ADMIN_KEY}` };
const TOOLS = [
  { name: "lookup_order", description: "Find an order" },
  { name: "issue_refund", description: "Refund an order" },
];

/** An agent whose one class was distilled into a shadow skill (review first). */
async function shadowSkill(request: APIRequestContext, agent: string) {
  expect((await request.put(`/api/v1/agents/${agent}`, { headers: auth, data: { name: agent, tools: TOOLS, learning: { require_shadow: true, promotion_every_n_runs: 0 } } })).status()).toBe(200);
  const workflows = Array.from({ length: 6 }, (_, i) => ({
    workflow_id: `${agent}-${i}`,
    query: `Please refund order ${agent}-${100 + i}`,
    steps: TOOLS.map((t) => ({ tool: t.name, arguments: { order_id: `A${i}` }, result: { ok: true } })),
    outcome: "success",
  }));
  expect((await request.post(`/api/v1/agents/${agent}/workflows/batch`, { headers: auth, data: { workflows } })).status()).toBe(207);
  const cycle = await request.post(`/api/v1/agents/${agent}/promotion-cycles`, { headers: auth });
  expect(cycle.status()).toBe(200);
  expect((await cycle.json()).promoted).toHaveLength(1);
}

/** An account that talks to `agent` and stated a goal. */
async function account(request: APIRequestContext, agent: string, userId: string, goal: string) {
  expect((await request.put(`/api/v1/agents/${agent}`, { headers: auth, data: { name: agent, tools: [] } })).status()).toBe(200);
  const posted = await request.post(`/api/v1/agents/${agent}/conversations`, {
    headers: auth,
    data: { thread_id: `${userId}-thread`, user_id: userId, messages: [{ role: "user", text: `My goal is to ${goal}.`, timestamp: "2026-11-30T09:00:00Z" }] },
  });
  expect(posted.status()).toBe(201);
}

async function signIn(page: Page) {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?next=%2F$/);
  await signInAs(page);
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
}

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Inbox → the waiting skill → Activate with a reason → the inbox again, without it. */
async function activateFromInbox(page: Page, agent: string, shot: string, openInbox: () => Promise<void>) {
  const waiting = page.getByRole("list", { name: "Skills waiting in shadow" });
  const row = waiting.getByRole("link").filter({ hasText: agent });
  await expect(row).toHaveCount(1);
  await noHorizontalScroll(page);
  await snapshot(page, `inbox-${shot}.png`);
  const skillName = (await row.locator("span").first().textContent())!;
  await row.click();
  await expect(page).toHaveURL(/\/skills\?.*skill=/);
  const panel = page.locator("#skill-detail");
  await expect(panel.getByRole("heading", { name: skillName })).toBeVisible();
  await panel.getByRole("button", { name: "Activate as user" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^Reason \(recorded in the audit log/).fill("Reviewed from the inbox");
  await dialog.getByRole("button", { name: "Activate as user" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${skillName} is active with user authority.`)).toBeVisible();
  await expect(panel.getByText("active", { exact: true })).toBeVisible();
  await openInbox();
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Skills waiting in shadow" }).getByRole("link").filter({ hasText: agent })).toHaveCount(0);
}

/** Accounts → the account → Reflect now → the suggestion, on its persona page. */
async function openSuggestion(page: Page, userId: string) {
  // The sidebar kept the skill's agent in scope; the account talks to another agent: all agents.
  await expect(page).toHaveURL(/\/accounts\?agent=/);
  await page.goto("/accounts");
  await page.getByRole("searchbox", { name: "Search accounts" }).fill(userId);
  await page.getByRole("searchbox", { name: "Search accounts" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/accounts\\?q=${userId}$`));
  await page.getByRole("link", { name: userId, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/persona-evolution\\?user_id=${userId}$`));
  await page.getByRole("button", { name: "Reflect now", exact: true }).click();
  await expect(page.getByText("Suggested adaptation · not applied", { exact: true })).toBeVisible();
}

async function unknownAddress(page: Page, shot: string) {
  allowConsoleError(page, /status of 404/);
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("button", { name: `Account: ${ADMIN_EMAIL}` })).toBeVisible();
  await noHorizontalScroll(page);
  await snapshot(page, `inbox-${shot}.png`);
  await page.getByRole("link", { name: "Go to the inbox" }).click();
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
}

test("at 1440 px: inbox → activate → back, accounts → persona → dismiss with a reason, 404 inside the console", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shadowSkill(request, "inbox-desk-bot");
  await account(request, "inbox-desk-tutor", "desk-learner", "pass the B2 Spanish exam by June");
  await signIn(page);
  const sections = page.getByRole("navigation", { name: "Sections" });
  await expect(sections.getByRole("link", { name: /^Inbox\s*\d+$/ })).toBeVisible();
  await expect(sections.getByRole("list", { name: "Awaiting a decision" })).toContainText("Skills waiting in shadow");

  await activateFromInbox(page, "inbox-desk-bot", "desktop", () => sections.getByRole("link", { name: /^Inbox/ }).click());

  await sections.getByRole("link", { name: "Accounts" }).click();
  await expect(page.getByRole("heading", { name: "Accounts" })).toBeVisible();
  await openSuggestion(page, "desk-learner");
  await page.getByRole("button", { name: "Dismiss", exact: true }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Dismiss this suggestion" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Dismiss" })).toBeDisabled();
  await dialog.getByRole("textbox").fill("The learner asked to focus on speaking first");
  await dialog.getByRole("button", { name: "Dismiss" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Suggestion dismissed: the goals are unchanged.")).toBeVisible();
  const activity = page.getByRole("region", { name: "Activity" });
  await activity.getByRole("button", { name: /Suggestion dismissed/ }).click();
  const detail = page.getByRole("region", { name: "Selected activity" });
  await expect(detail.getByText("The learner asked to focus on speaking first")).toBeVisible();
  await expect(detail.getByText("Pass the B2 Spanish exam by June").first()).toBeVisible();
  await snapshot(page, `inbox-persona-desktop.png`);

  await unknownAddress(page, "404-desktop");
  await expect(sections).toBeVisible();
});

test("at 375 px: the same flows, approving without a reason", async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await shadowSkill(request, "inbox-phone-bot");
  await account(request, "inbox-phone-tutor", "phone-learner", "read novels in Spanish");
  await signIn(page);
  const sections = page.getByRole("navigation", { name: "Sections" });
  await expect(sections).toBeHidden();
  const openMenu = () => clickUntilVisible(page.getByRole("button", { name: "Menu" }), sections);

  await activateFromInbox(page, "inbox-phone-bot", "mobile", async () => {
    await openMenu();
    await sections.getByRole("link", { name: /^Inbox/ }).click();
  });

  await openMenu();
  await sections.getByRole("link", { name: "Accounts" }).click();
  await expect(page.getByRole("heading", { name: "Accounts" })).toBeVisible();
  await noHorizontalScroll(page);
  await openSuggestion(page, "phone-learner");
  await page.getByRole("button", { name: "Approve for next turn", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeEnabled();
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Suggestion approved: the new goals apply from the next turn.")).toBeVisible();
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Activity" }).getByRole("button", { name: /Suggestion approved/ })).toBeVisible();
  await noHorizontalScroll(page);
  await snapshot(page, `inbox-persona-mobile.png`);

  await unknownAddress(page, "404-mobile");
});
