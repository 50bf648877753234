// Settings → Webhooks in Chromium: a URL that is not http(s) is refused with a readable
// message; an endpoint is added (its secret shown once), a dead job is delivered to a loopback
// receiver by the console's own worker and listed with its response code, and "Redeliver"
// sends it again.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server";
import { expect, test, snapshot } from "./fixtures";

let receiver: Server;
const ids: string[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    ids.push(String(req.headers["webhook-id"]));
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
});
test.afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

test("an admin adds a webhook endpoint, sees its deliveries and redelivers one", async ({ page, server }) => {
  await page.goto("/settings/webhooks");
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add a webhook endpoint" });
  // What is typed before hydration is lost to React's state: fill until the form counts it.
  await expect(async () => {
    await form.getByLabel("URL").fill("ftp://example.com/hook");
    const dead = form.getByRole("checkbox", { name: "Background job dead" });
    await dead.setChecked(false);
    await dead.check();
    await expect(form.getByRole("button", { name: "Add endpoint" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText(/the URL must be an http:\/\/ or https:\/\/ address/)).toBeVisible();
  expect((await server.sql.query("SELECT count(*)::int AS n FROM webhook_endpoints")).rows[0].n).toBe(0);

  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await form.getByLabel("URL").fill(url);
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("secret-value")).toHaveText(/^whsec_/);
  const card = page.getByRole("region", { name: `Webhook endpoint ${url}` });
  await expect(card).toContainText("job.dead");
  await page.getByRole("button", { name: "I have stored it" }).click();

  // A background job that ran out of attempts: the worker delivers the event.
  await server.sql.query("INSERT INTO jobs (kind, payload, attempts) VALUES ('e2e.never', '{}', 5)");
  await server.sql.query("UPDATE jobs SET status = 'DEAD' WHERE kind = 'e2e.never'");
  await expect.poll(() => ids.length, { timeout: 20_000 }).toBe(1);
  await expect
    .poll(async () => (await server.sql.query("SELECT status::text AS s FROM webhook_deliveries")).rows[0]?.s, { timeout: 10_000 })
    .toBe("DELIVERED");
  await page.reload();
  const row = card.getByRole("row", { name: /job\.dead/ });
  await expect(row).toContainText("delivered");
  await expect(row).toContainText("204");
  await snapshot(page, `webhooks.png`);

  await row.getByRole("button", { name: /^Redeliver/ }).click();
  await expect(page.getByText(/is queued again/)).toBeVisible();
  await expect.poll(() => ids.length, { timeout: 20_000 }).toBe(2);
  expect(ids[1]).toBe(ids[0]);
});
