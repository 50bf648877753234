// The skills page's Agent Skills buttons in Chromium: "Export skills (zip)" downloads the agent's
// active skills as <name>/SKILL.md folders; "Import skills" sends that zip to another agent and
// the toast reports one skill imported as shadow, which the page then lists. An imported folder is
// reviewed on its page: the inbox row and the skill say it bundles scripts, its files are listed and
// shown as text, and activation needs the scripts confirmed.
import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD } from "../helpers/server";
import { fixtureFiles, zipSkills } from "../helpers/agent-skills";
import { expect, snapshot, test } from "./fixtures";

const auth = { authorization: `Bearer ${ADMIN_KEY}` };
const TOOLS = [
  { name: "lookup_order", description: "Find an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
  { name: "issue_refund", description: "Refund an order", parameters: { type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } } } },
];

test("an admin exports an agent's skills as a zip and imports them into another agent", async ({ page, request }) => {
  for (const id of ["e2e-io-from", "e2e-io-to"]) {
    const put = await request.put(`/api/v1/agents/${id}`, { headers: auth, data: { name: id, tools: TOOLS, learning: { require_shadow: false, auto_activate: true } } });
    expect(put.status(), await put.text()).toBe(200);
  }
  const workflows = [0, 1, 2, 3, 4, 5].map((i) => ({
    workflow_id: `e2e-io-${i}`,
    query: i % 2 ? `Refund order B${i}` : `Please refund my order C${i}`,
    steps: [
      { tool: "lookup_order", arguments: { order_id: `X${i}` } },
      { tool: "issue_refund", arguments: { order_id: `X${i}`, amount: 3 } },
    ],
    outcome: "success",
  }));
  expect((await request.post("/api/v1/agents/e2e-io-from/workflows/batch", { headers: auth, data: { workflows } })).status()).toBe(207);
  const cycle = await request.post("/api/v1/agents/e2e-io-from/promotion-cycles", { headers: auth });
  expect((await cycle.json()).promoted).toHaveLength(1);

  await page.goto("/skills?agent=e2e-io-from");
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const downloading = page.waitForEvent("download");
  // The export says what it exports: the agent's one active skill.
  await page.getByRole("link", { name: "Export 1 active skill (zip)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("e2e-io-from-skills-active.zip");
  const zip = readFileSync((await download.path())!);
  const entries = Object.keys(unzipSync(new Uint8Array(zip)));
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatch(/^[a-z0-9-]+\/SKILL\.md$/);

  await page.goto("/skills?agent=e2e-io-to");
  await page.getByLabel("Skills to import (a zip of skill folders or one SKILL.md)").setInputFiles({ name: "skills.zip", mimeType: "application/zip", buffer: zip });
  await expect(page.getByRole("status").filter({ hasText: "1 skill imported as shadow, 0 already present, 0 refused." })).toBeVisible();
  await expect(page.getByRole("cell", { name: entries[0].split("/")[0] }).first()).toBeVisible();
  const listed = await request.get("/api/v1/agents/e2e-io-to/skills?status=shadow", { headers: auth });
  expect((await listed.json()).skills).toHaveLength(1);
});

test("an admin reviews an imported folder: its files, a file as text, its scripts marked and confirmed by name at activation", async ({ page, request }) => {
  const put = await request.put("/api/v1/agents/e2e-folders", { headers: auth, data: { name: "e2e-folders", tools: TOOLS } });
  expect(put.status(), await put.text()).toBe(200);
  const zip = zipSkills(["browser-smoke-test", "brand-style"].map((name) => ({ name, files: fixtureFiles(name) })));
  const imported = await request.post("/api/v1/agents/e2e-folders/skills/import", { headers: { ...auth, "content-type": "application/zip" }, data: Buffer.from(zip) });
  expect(imported.status(), await imported.text()).toBe(200);
  const created = Object.fromEntries(((await imported.json()).created as { name: string; skill_id: string }[]).map((c) => [c.name, c.skill_id]));

  await page.goto("/?agent=e2e-folders");
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // The inbox row says what the reviewer must know before opening it.
  await expect(page.getByRole("link", { name: /browser-smoke-test v1/ }).getByTestId("inbox-marks")).toHaveText("bundles 2 scripts · 2 review warnings");

  await page.goto(`/skills?agent=e2e-folders&skill=${created["browser-smoke-test"]}`);
  const detail = page.locator("#skill-detail");
  await expect(detail.getByText("bundles 2 scripts")).toBeVisible();
  await expect(detail.getByRole("note", { name: "Review warnings" })).toContainText("allowed-tools names tools this agent does not declare: Bash, Read, Write");
  const files = detail.getByRole("list", { name: "Skill files" });
  await expect(files.getByRole("listitem")).toHaveCount(5);
  await expect(files.getByRole("listitem").filter({ hasText: "scripts/run_server.py" })).toContainText("script");

  // A bundled file is shown as text: its markup is never rendered.
  await files.getByRole("link", { name: "references/selectors.md" }).click();
  const text = detail.getByTestId("skill-file-text");
  await expect(text).toContainText('<button onclick="save()">Save</button>');
  await expect(text.locator("button")).toHaveCount(0);
  await snapshot(page, "imported-skill-files.png");

  await detail.getByRole("button", { name: "Activate as user" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("alert").filter({ hasText: "bundles 2 script files" })).toContainText("scripts/run_server.py");
  await dialog.getByLabel(/^Reason \(recorded in the audit log/).fill("read both scripts");
  const confirm = dialog.getByRole("button", { name: "Activate as user" });
  await expect(confirm).toBeDisabled();
  await snapshot(page, "imported-skill-activate.png");
  await dialog.getByLabel(/I have read these 2 scripts/).check();
  await confirm.click();
  await expect(page.getByRole("status").filter({ hasText: "browser-smoke-test v1 is active with user authority." })).toBeVisible();
  const skill = await request.get(`/api/v1/skills/${created["browser-smoke-test"]}`, { headers: auth });
  expect((await skill.json()).status).toBe("active");
});
