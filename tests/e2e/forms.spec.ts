// The learning settings form in daily use: sections, changed fields marked and
// counted in the save bar, errors in words next to their field, a warning before a link drops
// unsaved changes, and a saved value surviving a reload; a list page past its last page says so.
// At 1440 px, then 375 px; screenshots under tests/e2e/artifacts/forms-*.png.
import type { Locator } from "@playwright/test";
import { ADMIN_KEY } from "../helpers/server";
import { expect, test, signIn, snapshot } from "./fixtures";

const AGENT = "e2e-forms-bot";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

test("settings: changes are counted, worded, guarded on leaving and saved; a page past the last one says so", async ({ page, request }) => {
  const put = await request.put(`/api/v1/agents/${AGENT}`, { headers: auth, data: { name: "E2E forms bot", tools: [{ name: "lookup_order", description: "Find an order" }] } });
  expect(put.status(), await put.text()).toBe(200);
  const workflows = [0, 1, 2].map((i) => ({ workflow_id: `e2e-forms-${i}`, query: `Where is order ${i}?`, steps: [{ tool: "lookup_order", arguments: { id: i }, result: { ok: true } }], outcome: "success" }));
  expect((await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, { headers: auth, data: { workflows } })).status()).toBe(207);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/agents/${AGENT}/settings`);
  await signIn(page);
  const form = page.getByRole("form", { name: "Learning settings" });
  const count = page.getByTestId("changed-count");
  await expect(count).toHaveText("No unsaved changes");
  await expect(form.getByRole("button", { name: "Save settings" })).toBeDisabled();
  // The two similarity thresholds are told apart by their labels.
  await expect(form.getByLabel("Shadow match: minimum query similarity")).toBeVisible();
  await expect(form.getByLabel("Injection: minimum query similarity")).toBeVisible();
  // The learning scope is a choice of the schema's values: a new agent pools its accounts.
  const scope = form.getByLabel("Learning scope");
  await expect(scope).toHaveValue("agent");
  await expect(scope.locator("option")).toHaveText([/^Agent-wide/, /^Per account/]);

  // A change is marked and counted; a bad value is refused in words next to its field.
  const minRuns = form.getByLabel("Minimum runs", { exact: false });
  await fillCounted(minRuns, "7", count, "1 unsaved change");
  await expect(page.locator('[data-changed="true"]').filter({ has: page.getByLabel("Minimum runs") })).toContainText("changed");
  const rate = form.getByLabel("Minimum success rate", { exact: false });
  await rate.fill("1.5");
  await expect(count).toHaveText("2 unsaved changes");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator('[data-changed="true"]').filter({ has: page.getByLabel("Minimum success rate") }).getByRole("alert")).toHaveText("Enter a number of at most 1.");
  await expect(rate).toHaveAttribute("aria-invalid", "true");
  await expect(rate).toBeFocused();
  await expect(count).toContainText("fix the marked field to save");
  await snapshot(page, `forms-settings-error.png`);
  await rate.fill("0.9");

  // Leaving by a link asks first: staying keeps the edits.
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.message();
    void d.dismiss();
  });
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Skills" }).click();
  expect(asked).toBe("Leave without saving? 2 changed settings will be lost.");
  await expect(page).toHaveURL(new RegExp(`/agents/${AGENT}/settings`));
  await expect(minRuns).toHaveValue("7");

  // Saving: a toast, nothing left unsaved, and the value is there after a reload.
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Learning settings saved.")).toBeVisible();
  await expect(count).toHaveText("No unsaved changes");
  await page.reload();
  await expect(form.getByLabel("Minimum runs", { exact: false })).toHaveValue("7");
  await expect(form.getByLabel("Minimum success rate", { exact: false })).toHaveValue("0.9");

  // With nothing unsaved, links leave without asking; with a change, accepting leaves.
  await fillCounted(form.getByLabel("Skills per turn"), "3", count, "1 unsaved change");
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Skills" }).click();
  await expect(page).toHaveURL(/\/skills/);

  // A list page past its last page says so and links back.
  await page.goto(`/workflows?agent=${AGENT}&page=99`);
  await expect(page.getByRole("heading", { name: "Page 99 is past the last page" })).toBeVisible();
  await snapshot(page, `forms-past-last-page.png`);
  await page.getByRole("link", { name: "Go to page 1" }).click();
  await expect(page.getByRole("heading", { name: "Page 99 is past the last page" })).toHaveCount(0);

  // 375 px: the sections and the save bar fit; a change still shows its count.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/agents/${AGENT}/settings`);
  await fillCounted(form.getByLabel("Minimum runs", { exact: false }), "8", count, "1 unsaved change");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snapshot(page, `forms-settings-mobile.png`);
  await page.getByRole("button", { name: "Discard changes" }).click();
  await expect(count).toHaveText("No unsaved changes");
});

/** What is typed into a page that has not hydrated yet is lost to React's state: fill until the save bar counts it. */
async function fillCounted(field: Locator, value: string, count: Locator, counted: string) {
  await expect(async () => {
    await field.fill(value);
    await expect(count).toHaveText(counted, { timeout: 1000 });
  }).toPass();
}
