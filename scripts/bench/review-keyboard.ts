// `npx tsx scripts/bench/review-keyboard.ts`: review decisions per minute on the demo
// (npm run seed:demo, one promotion cycle distilling up to 30 classes into shadow skills, one per
// account) by a scripted keyboard-only reviewer in Chromium, two ways on the same build:
//   one by one: the per-skill flow (the only one before bulk review): Tab to "Activate as user",
//     Enter, type the reason, Tab to the confirmation, Enter, wait for the list to refresh;
//   bulk: j/x over the rows, a, type one reason, Tab to the confirmation, Enter.
// Prints both figures; no target, no assertion (a figure for the note).
import path from "node:path";
import { spawnSync } from "node:child_process";
import { chromium, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer } from "../../tests/helpers/server.ts";
import { login } from "../../tests/helpers/http.ts";
import { callAction } from "../../tests/helpers/actions.ts";
import { DEMO_AGENT_ID } from "../demo/data.ts";
import { ensureBuild } from "./measure.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Decisions timed per way. */
const N = Number(process.env.BENCH_DECISIONS ?? 8);

ensureBuild();
const server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
const browser = await chromium.launch({ executablePath: process.env.PROCTOR_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const seeded = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/seed-demo.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: server.databaseUrl, NEXTAUTH_URL: server.baseUrl },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seed:demo failed:\n${seeded.stdout}\n${seeded.stderr}`);
  await server.sql.query(`UPDATE agents SET learning = learning || '{"max_promotions_per_cycle": 30}' WHERE id = $1`, [DEMO_AGENT_ID]);
  const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const cycle = await callAction(server, admin, "lib/actions/learning.ts#runPromotionCycle", { agent_id: DEMO_AGENT_ID });
  if (cycle.kind !== "ok") throw new Error(cycle.text);
  const shadow = (await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE status IN ('SHADOW', 'CANDIDATE')")).rows[0].n as number;
  console.log(`demo: ${shadow} skills awaiting review after one promotion cycle; timing ${N} decisions each way`);
  if (shadow < 2 * N) throw new Error(`need ${2 * N} skills in review, have ${shadow}`);

  const page = await (await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } })).newPage();
  const list = `/skills?agent=${encodeURIComponent(DEMO_AGENT_ID)}&status=shadow`;
  await page.goto(list);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByLabel("Password").press("Enter");
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  const listed = await page.goto(list);
  if (!listed?.ok()) throw new Error(`${list} answered ${listed?.status()}`);
  await page.getByRole("heading", { name: "Skills", level: 1 }).waitFor({ timeout: 120_000 });

  const rows = () => page.locator("tr[data-row-key]").count();
  const tabTo = async (p: Page, name: string) => {
    const seen: string[] = [];
    for (let i = 0; i < 300; i++) {
      await p.keyboard.press("Tab");
      const text = await p.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
      if (text === name) return;
      seen.push(text);
    }
    throw new Error(`no "${name}" reached by Tab; reached: ${seen.slice(0, 80).join(" | ")}`);
  };
  const decisionsPerMinute = (n: number, ms: number) => ((n / ms) * 60_000).toFixed(1);

  // One by one: the first row's detail is shown; Tab to its Activate button.
  const t0 = Date.now();
  for (let i = 0; i < N; i++) {
    const before = await rows();
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await tabTo(page, "Activate as user");
    await page.keyboard.press("Enter");
    await page.keyboard.type("reviewed");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => document.querySelectorAll("tr[data-row-key]").length < n, before);
  }
  const oneByOne = Date.now() - t0;

  // Bulk: j/x over N rows, a, one reason, confirm.
  const t1 = Date.now();
  const before = await rows();
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < N; i++) {
    await page.keyboard.press("j");
    await page.locator("tr[data-row-key] a[aria-current='true']").nth(0).waitFor();
    await page.keyboard.press("x");
  }
  await page.keyboard.press("a");
  await page.getByRole("dialog").waitFor();
  await page.keyboard.type("reviewed");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.waitForFunction((n) => document.querySelectorAll("tr[data-row-key]").length <= n, before - N);
  const bulk = Date.now() - t1;

  console.log(`one by one: ${N} decisions in ${(oneByOne / 1000).toFixed(1)} s = ${decisionsPerMinute(N, oneByOne)} decisions per minute`);
  console.log(`bulk:       ${N} decisions in ${(bulk / 1000).toFixed(1)} s = ${decisionsPerMinute(N, bulk)} decisions per minute`);
} finally {
  await browser.close();
  await server.stop();
}
