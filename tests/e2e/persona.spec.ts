// Persona evolution in Chromium: Reflect now → a suggestion (not applied) at version 1 whose
// evidence opens the thread's trace → Approve (version 2) → Undo with a reason (version 3) → Pause (Resume
// shown, Reflect disabled) → no horizontal overflow at 375 px; no browser errors.
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD } from "../helpers/server";
import { expect, test, snapshot } from "./fixtures";

const AGENT = "e2e-tutor";
const USER = "learner-1";

test("an admin reflects, approves, undoes and pauses an account's persona", async ({ page, request }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  expect((await request.put(`/api/v1/agents/${AGENT}`, { headers: auth, data: { name: "E2E tutor", tools: [] } })).status()).toBe(200);
  const posted = await request.post(`/api/v1/agents/${AGENT}/conversations`, {
    headers: auth,
    data: {
      thread_id: "e2e-thread",
      user_id: USER,
      messages: [
        { role: "user", text: "My goal is to pass the B2 Spanish exam by June.", timestamp: "2026-11-30T09:00:00Z" },
        { role: "assistant", text: "Great, let's plan for it.", timestamp: "2026-11-30T09:00:05Z" },
      ],
    },
  });
  expect(posted.status()).toBe(201);

  await page.goto(`/persona-evolution?user_id=${USER}`);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/persona-evolution\?user_id=learner-1$/);
  // Reflect now acts through React's click handler: a click before the page hydrates is lost
  // (CI once saw the page unchanged 15 s after it, on a machine busy with the other suites).
  await page.waitForLoadState("networkidle");

  await page.getByRole("button", { name: "Reflect now", exact: true }).click();
  await expect(page.getByText("Suggested adaptation · not applied", { exact: true })).toBeVisible();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reflect now", exact: true })).toBeDisabled();
  const evidence = page.locator(".pe-evidence a").first();
  expect(await evidence.getAttribute("href")).toBe(`/traces?agent_id=${AGENT}&user_id=${USER}&thread_id=e2e-thread#trace-timeline`);
  await snapshot(page, `persona-suggestion.png`);

  // The evidence opens the conversation's timeline.
  await evidence.click();
  await expect(page).toHaveURL(/\/traces\?agent_id=e2e-tutor&user_id=learner-1&thread_id=e2e-thread#trace-timeline$/);
  await expect(page.getByRole("heading", { name: "Thread e2e-thread" })).toBeVisible();
  await expect(page.getByText("My goal is to pass the B2 Spanish exam by June.")).toBeVisible();
  await page.goBack();

  // Decisions ask for confirmation: the reason is optional to approve, required to undo.
  await page.getByRole("button", { name: "Approve for next turn", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();
  await expect(page.getByText("Pass the B2 Spanish exam by June").first()).toBeVisible();

  await page.getByRole("button", { name: "Undo last change", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Undo change" })).toBeDisabled();
  await dialog.getByRole("textbox").fill("The exam date moved");
  await dialog.getByRole("button", { name: "Undo change" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Version 3", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Undo last change", exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: "Pause reflection", exact: true }).click();
  await expect(page.getByRole("button", { name: "Resume reflection", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reflect now", exact: true })).toBeDisabled();

  await page.setViewportSize({ width: 375, height: 740 });
  await expect(page.getByRole("button", { name: "Resume reflection", exact: true })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snapshot(page, `persona-mobile.png`);
});
