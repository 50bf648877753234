// One console per worker, on a fresh database, for the browser tests. Every page fails its
// test on a browser console error or an uncaught exception, except those the test declares.
import { test as base, expect, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";

export const ARTIFACTS = "tests/e2e/artifacts";

const expected = new WeakMap<Page, RegExp[]>();

/** Declares a console error the test provokes on purpose (e.g. loading a 403 page). */
export function allowConsoleError(page: Page, match: RegExp) {
  expected.get(page)?.push(match);
}

export const test = base.extend<object, { server: TestServer }>({
  server: [
    async ({}, use) => {
      const server = await startTestServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 180_000 },
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

/** The browser test with a console of its own, started with `env` (persona actions, no model…). */
export function testOnServer(env: Record<string, string>) {
  return test.extend<object, { server: TestServer }>({
    server: [
      async ({}, use) => {
        const server = await startTestServer({ env });
        await use(server);
        await server.stop();
      },
      { scope: "worker", timeout: 180_000 },
    ],
  });
}

/** Fills and sends the sign-in form the page shows (the admin unless told otherwise). */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}
