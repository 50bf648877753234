// The console end to end in Chromium: sign in, create an API key in Settings, register an
// agent and send runs with that key, find them in the console, add a viewer, sign out; the
// viewer cannot open Settings.
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server";
import { allowConsoleError, clickUntilVisible, expect, test, signIn, snapshot } from "./fixtures";
import type { Page } from "@playwright/test";

const AGENT = "e2e-support-bot";

async function signOut(page: Page, email: string) {
  await page.getByRole("button", { name: `Account: ${email}` }).click();
  await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

test("an admin signs in, creates a key, sees ingested runs, adds a viewer and signs out; the viewer cannot open Settings", async ({ page, request }) => {
  // Anonymous visitors are sent to the login page, which brings them back afterwards.
  await page.goto("/workflows");
  await expect(page).toHaveURL(/\/login\?next=%2Fworkflows/);
  allowConsoleError(page, /status of 401 .*\/api\/auth\/callback\/credentials/);
  await signIn(page, ADMIN_EMAIL, "not the password");
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();

  // Settings → API keys: create a key with both scopes and read its secret, shown once.
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await page.getByLabel("Name").fill("e2e agent key");
  await page.getByRole("checkbox", { name: "admin" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("secret-value").textContent())!.trim();
  expect(secret).toMatch(/^pk_[A-Za-z0-9]{10}_/);
  await expect(page.getByRole("row", { name: /e2e agent key/ })).toContainText(secret.split("_").slice(0, 2).join("_"));
  await snapshot(page, `api-key-created.png`);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);

  // The agent registers itself and reports runs with that key, over the public API.
  const auth = { authorization: `Bearer ${secret}` };
  const put = await request.put(`/api/v1/agents/${AGENT}`, {
    headers: auth,
    data: {
      name: "E2E support bot",
      tools: [
        { name: "lookup_order", description: "Find an order by id" },
        { name: "issue_refund", description: "Refund an order" },
      ],
    },
  });
  expect(put.status()).toBe(200);
  for (const [i, outcome] of ["success", "success", "failure"].entries()) {
    const r = await request.post(`/api/v1/agents/${AGENT}/workflows`, {
      headers: auth,
      data: {
        workflow_id: `e2e-run-${i}`,
        user_id: "acct-7",
        query: `Refund order A${i}`,
        steps: [
          { tool: "lookup_order", arguments: { order_id: `A${i}` }, result: { status: "paid" } },
          { tool: "issue_refund", arguments: { order_id: `A${i}`, amount: 12.5 }, ...(outcome === "failure" ? { error: { type: "TimeoutError", message: "gateway timed out" } } : { result: { accepted: true } }) },
        ],
        outcome,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
  }

  // The agent and its runs appear in the console.
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Agents" }).click();
  const row = page.getByRole("row", { name: /E2E support bot/ });
  await expect(row).toContainText("lookup_order");
  await expect(row).toContainText("issue_refund");
  await expect(row.getByRole("cell").nth(2)).toHaveText("3");
  await row.getByRole("link", { name: /E2E support bot/ }).click();
  await expect(page.getByRole("heading", { name: "E2E support bot" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^e2e-run-\d$/ })).toHaveCount(3);
  await page.getByRole("link", { name: "e2e-run-2" }).click();
  await expect(page.getByRole("heading", { name: "Run e2e-run-2" })).toBeVisible();
  await expect(page.getByText("gateway timed out")).toBeVisible();
  await expect(page.getByText('"amount": 12.5')).toBeVisible();
  await snapshot(page, `run-detail.png`);

  // The agent switcher narrows the workflows list to one agent, in the URL.
  await page.goto("/workflows/runs");
  await page.getByRole("combobox", { name: "Agent" }).first().selectOption(AGENT);
  await expect(page).toHaveURL(new RegExp(`agent=${AGENT}`));
  await expect(page.getByRole("link", { name: /^e2e-run-\d$/ })).toHaveCount(3);

  // Settings → Users: add a viewer (a generated password is shown once).
  await page.goto("/settings/users");
  await page.getByRole("form", { name: "Create a user" }).getByLabel("Email").fill("viewer@e2e.local");
  await page.getByRole("button", { name: "Create user" }).click();
  const viewerPassword = (await page.getByTestId("secret-value").textContent())!.trim();
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await expect(page.getByRole("row", { name: /viewer@e2e\.local/ })).toBeVisible();

  await signOut(page, ADMIN_EMAIL);
  await page.goto("/agents");
  await expect(page).toHaveURL(/\/login\?next=%2Fagents/);

  // The viewer sees agents and runs but no Settings, and the page itself refuses them.
  await signIn(page, "viewer@e2e.local", viewerPassword);
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole("row", { name: /E2E support bot/ })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" })).toHaveCount(0);
  allowConsoleError(page, /status of 403 .*\/settings\/api-keys/);
  const forbidden = await page.goto("/settings/api-keys");
  expect(forbidden?.status()).toBe(403);
  await expect(page.getByText("You do not have access to this page")).toBeVisible();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await snapshot(page, `viewer-forbidden.png`);
  await signOut(page, "viewer@e2e.local");
});

test("dark mode persists without a flash, and the shell works at 375 px", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/login");
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  // Without a page to come back to, sign-in opens the home page: the review inbox.
  await expect(page).toHaveURL(/:\d+\/$/);
  // The sidebar is a menu behind a button on a phone.
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  const sections = page.getByRole("navigation", { name: "Sections" });
  await clickUntilVisible(page.getByRole("button", { name: "Menu" }), sections);
  await sections.getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  // No flash: on reload the class is already there when the parser reaches <body>, i.e.
  // before anything is painted (and long before React hydrates).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      (window as unknown as { darkAtBody: boolean }).darkAtBody = document.documentElement.classList.contains("dark");
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { darkAtBody?: boolean }).darkAtBody)).toBe(true);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await snapshot(page, `audit-dark-375.png`);
});
