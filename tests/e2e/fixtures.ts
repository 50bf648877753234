// One console per worker for the browser tests. Every page fails its
// test on a browser console error or an uncaught exception, except those the test declares.
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { resetDatabase, takeSnapshot, type Snapshot } from "../helpers/database-reset";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";

export const ARTIFACTS = "tests/e2e/artifacts";

/**
 * A full-page screenshot under ARTIFACTS/<name> when PROCTOR_E2E_SCREENSHOTS is set (to look at
 * the pages after a run); otherwise nothing: a full-page PNG costs Chromium a second of CPU beside
 * the integration suites.
 */
export async function snapshot(page: Page, name: string) {
  if (process.env.PROCTOR_E2E_SCREENSHOTS) await page.screenshot({ path: `${ARTIFACTS}/${name}`, fullPage: true });
}

const expected = new WeakMap<Page, RegExp[]>();

/** Declares a console error the test provokes on purpose (e.g. loading a 403 page). */
export function allowConsoleError(page: Page, match: RegExp) {
  expected.get(page)?.push(match);
}

// Every spec shares one console (a server start costs 10 to 20 s), on a database put back to
// what start-up wrote whenever a new spec file begins (tests/helpers/database-reset.ts): persona
// actions on, no model (the deterministic reflector and the template distiller).
const ENV = { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" };
/** The spec file the database was last reset for, in this worker. */
let databaseOf: string | null = null;

export const test = base.extend<{ freshDatabase: void }, { server: TestServer; snapshot: Snapshot }>({
  server: [
    async ({}, use) => {
      const server = await startTestServer({ env: ENV });
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 180_000 },
  ],
  snapshot: [async ({ server }, use) => use(await takeSnapshot(server.databaseUrl)), { scope: "worker" }],
  freshDatabase: [
    async ({ server, snapshot }, use, testInfo) => {
      if (databaseOf !== null && databaseOf !== testInfo.file) await resetDatabase(server.sql, snapshot);
      databaseOf = testInfo.file;
      await use();
    },
    { auto: true },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
  page: async ({ page }, use) => {
    const errors: string[] = [];
    expected.set(page, []);
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${m.text()} @ ${m.location().url}`);
    });
    page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
    await use(page);
    const allowed = expected.get(page)!;
    expect(errors.filter((e) => !allowed.some((r) => r.test(e)))).toEqual([]);
  },
});

export { expect };

/** A click before the page hydrates does nothing: clicks `target` until `shown` is visible. */
export async function clickUntilVisible(target: Locator, shown: Locator) {
  await expect(async () => {
    await target.click();
    await expect(shown).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

/** Fills and sends the sign-in form the page shows (the admin unless told otherwise). */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}
