// Accounts of the console in the browser: a user changes their own password from the user menu
// (a wrong current password is refused in words beside its field; the other browser is signed
// out and told why), signs in with the new one, and "Sign out everywhere" ends another
// browser's session too.
import { callAction } from "../helpers/actions";
import { login } from "../helpers/http";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server";
import type { Page } from "@playwright/test";
import { allowConsoleError, clickUntilVisible, expect, signIn, snapshot, test } from "./fixtures";

test("change the own password, sign in with it; sign out everywhere ends the other browser's session", async ({ page, browser, server }, testInfo) => {
  const email = `e2e-own-${testInfo.retry}@test.local`;
  const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const created = await callAction(server, admin, "lib/actions/users.ts#createUser", { email, role: "VIEWER", password: "first-password-1" });
  expect(created.kind).toBe("ok");

  // Another browser signed in as the same user.
  const other = await browser.newContext({ baseURL: server.baseUrl });
  const otherPage = await other.newPage();
  await otherPage.goto("/agents");
  await signIn(otherPage, email, "first-password-1");
  await expect(otherPage).toHaveURL(/\/agents$/);

  await page.goto("/agents");
  await signIn(page, email, "first-password-1");
  await expect(page).toHaveURL(/\/agents$/);
  await chooseFromAccountMenu(page, email, "Change password");
  const form = page.getByRole("form", { name: "Change password" });
  await expect(form.getByRole("checkbox", { name: /Sign out my other sessions/ })).toBeChecked();

  // Keyboard only: fill, then Enter. A wrong current password is refused beside its field.
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel(/^New password \(/).fill("second-password-2");
  await form.getByLabel("New password again").fill("second-password-2");
  await form.getByLabel("New password again").press("Enter");
  await expect(form.getByRole("alert")).toHaveText("The current password is wrong.");
  await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await snapshot(page, "account-wrong-password.png");

  await form.getByLabel("Current password").fill("first-password-1");
  await form.getByLabel("Current password").press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Password changed. 1 other session was signed out." })).toBeVisible();

  // The other browser is sent to sign in, told why, and signs in with the new password.
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login\?/);
  await expect(otherPage.getByText("Your password was changed, so this session ended.")).toBeVisible();
  await signIn(otherPage, email, "second-password-2");
  await expect(otherPage.getByRole("button", { name: `Account: ${email}` })).toBeVisible();

  // "Sign out everywhere" here ends the other browser's session too.
  await chooseFromAccountMenu(page, email, /Sign out everywhere/);
  await expect(page).toHaveURL(/\/login\?reason=signed_out_everywhere$/);
  await expect(page.getByText("You signed out everywhere")).toBeVisible();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login\?/);
  await expect(otherPage.getByText("You signed out everywhere")).toBeVisible();

  // The old password is refused; the new one signs in.
  allowConsoleError(page, /401 \(Unauthorized\) @ .*\/api\/auth\/callback\/credentials/);
  await signIn(page, email, "first-password-1");
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await signIn(page, email, "second-password-2");
  await expect(page).toHaveURL(/\/$|\/agents|\/inbox/);
  await expect(page.getByRole("button", { name: `Account: ${email}` })).toBeVisible();
  await other.close();
});

/** Opens the account menu (until it shows, as clicks before hydration do nothing) and chooses the item. */
async function chooseFromAccountMenu(page: Page, email: string, item: string | RegExp) {
  const entry = page.getByRole("menuitem", { name: item });
  await clickUntilVisible(page.getByRole("button", { name: `Account: ${email}` }), entry);
  await entry.click();
}
