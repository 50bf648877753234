// The console's main pages with something on them, for the accessibility and narrow-screen
// specs: one agent with runs in a thread, a class, a shadow skill, an account. Sent over the
// agent API with the test server's admin key; returns the pages to visit (twelve, by heading).
import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD } from "../helpers/server";
import { expect } from "./fixtures";

const AGENT = "e2e-pages-bot";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

export async function seedMainPages(request: APIRequestContext): Promise<{ path: string; heading: string }[]> {
  const put = await request.put(`/api/v1/agents/${AGENT}`, {
    headers: auth,
    data: {
      name: "E2E pages bot",
      tools: [
        { name: "lookup_order", description: "Find an order" },
        { name: "issue_refund", description: "Refund an order" },
      ],
      learning: { promotion_every_n_runs: 0, learning_scope: "user" },
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  const t0 = Date.parse("2026-11-30T10:00:00Z");
  const batch = await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, {
    headers: auth,
    data: {
      workflows: Array.from({ length: 12 }, (_, i) => ({
        workflow_id: `pages-${i}`,
        user_id: `acct-pages-${i % 2}`,
        thread_id: "thread-pages",
        query: `Refund order P${i}`,
        steps: [
          { tool: "lookup_order", arguments: { order_id: `P${i}` }, result: { status: "paid" }, timestamp: new Date(t0 + i * 60_000).toISOString() },
          { tool: "issue_refund", arguments: { order_id: `P${i}`, amount: 12.5 }, result: { accepted: true }, timestamp: new Date(t0 + i * 60_000 + 1500).toISOString() },
        ],
        outcome: "success",
      })),
    },
  });
  expect(batch.status(), await batch.text()).toBe(207);
  const cycle = await request.post(`/api/v1/agents/${AGENT}/promotion-cycles`, { headers: auth });
  expect(cycle.status(), await cycle.text()).toBe(200);
  const skillId = (await cycle.json()).promoted[0] as string;
  expect(skillId).toBeTruthy();
  return [
    { path: "/", heading: "Inbox" },
    { path: "/agents", heading: "Agents" },
    { path: `/workflows?agent=${AGENT}`, heading: "Workflows" },
    { path: "/workflows/runs", heading: "Workflows" },
    { path: `/skills?agent=${AGENT}&skill=${skillId}`, heading: "Skills" },
    { path: `/traces?agent=${AGENT}&user_id=acct-pages-0&thread_id=thread-pages`, heading: "Traces" },
    { path: "/accounts", heading: "Accounts" },
    { path: "/ledger", heading: "Evidence ledger" },
    { path: "/audit", heading: "Audit log" },
    { path: "/experiments", heading: "Experiments" },
    { path: "/settings/api-keys", heading: "API keys" },
    { path: "/settings/webhooks", heading: "Webhooks" },
  ];
}

/** Signs the admin in from the login page the first visit lands on. */
export async function signInAt(page: Page, path: string) {
  await page.goto(path);
  const button = page.getByRole("button", { name: "Sign in", exact: true });
  // What is typed before hydration is lost to React's state: fill until the form counts it.
  await expect(async () => {
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await expect(button).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await button.click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}
