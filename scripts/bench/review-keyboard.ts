// `npm run bench:review-keyboard -- [--root <checkout>] [--ways one-by-one,bulk]`: review
// decisions per minute on the demo (npm run seed:demo, one promotion cycle distilling up to 30
// classes into shadow skills, one per account) by a scripted keyboard-only reviewer in Chromium.
// No mouse: focus moves only by Tab and the list's own shortcuts.
//   one-by-one: the per-skill flow (the only one before bulk review): j selects the next row and
//     shows its detail, Tab to the detail's "Activate as user", Enter, type the reason, Tab to the
//     dialog's confirmation, Enter, wait until the row leaves the list;
//   bulk: j/x over the rows, a, type one reason, Tab to the confirmation, Enter.
// --root runs the server, seed, promotion cycle and build (PROCTOR_DIST_DIR) of another checkout,
// e.g. a worktree of the commit before bulk review, so both UIs are measured the same way.
// Prints the figures (and Tabs per decision); no target, no assertion (a figure for the note).
import path from "node:path";
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { chromium, type Locator, type Page } from "@playwright/test";
import { DEMO_AGENT_ID } from "../demo/data.ts";

type Way = "one-by-one" | "bulk";
const { values: args } = parseArgs({ options: { root: { type: "string" }, ways: { type: "string", default: "one-by-one,bulk" } } });
const ROOT = path.resolve(args.root ?? path.resolve(import.meta.dirname, "../.."));
const WAYS = args.ways.split(",") as Way[];
if (!WAYS.length || WAYS.some((w) => w !== "one-by-one" && w !== "bulk")) throw new Error(`--ways takes one-by-one and/or bulk, not ${args.ways}`);
/** Decisions timed per way. */
const N = Number(process.env.BENCH_DECISIONS ?? 8);
/** A Tab search that passes this many stops has missed its target. */
const MAX_TABS = 400;

// The checkout's own helpers: its server (scripts/start.ts, its migrations, its build) and its actions.
const from = <T>(file: string) => import(path.join(ROOT, file)) as Promise<T>;
const { ensureBuild } = await from<typeof import("./measure.ts")>("scripts/bench/measure.ts");
const { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer } = await from<typeof import("../../tests/helpers/server.ts")>("tests/helpers/server.ts");
const { login } = await from<typeof import("../../tests/helpers/http.ts")>("tests/helpers/http.ts");
const { callAction } = await from<typeof import("../../tests/helpers/actions.ts")>("tests/helpers/actions.ts");

ensureBuild();
const server = await startTestServer({ kind: "postgres", env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" }, startTimeoutMs: 300_000 });
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
  console.log(`${ROOT} (${process.env.PROCTOR_DIST_DIR || ".next"}): ${shadow} skills awaiting review after one promotion cycle; timing ${N} decisions each way (${WAYS.join(", ")})`);
  if (shadow < WAYS.length * N) throw new Error(`need ${WAYS.length * N} skills in review, have ${shadow}`);

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
  // The list's shortcuts work once the page has hydrated: let its scripts load before timing.
  await page.waitForLoadState("networkidle");

  /** The row holding the focus (the list's shortcuts focus the selected row's link). */
  const focusedRow = () => page.evaluate(() => document.activeElement?.closest("tr[data-row-key]")?.getAttribute("data-row-key") ?? null);
  const gone = (key: string) => page.waitForFunction((k) => !document.querySelector(`tr[data-row-key="${CSS.escape(k)}"]`), key, { timeout: 60_000 });
  /**
   * j until a row not yet taken holds the focus: that row's key. j moves the focus as it handles
   * the key, so a j that moved nothing within 2 s was not handled (a page still hydrating) and
   * is pressed again.
   */
  const nextRow = async (taken: ReadonlySet<string>) => {
    for (let presses = 0; presses < 50; presses++) {
      const before = await focusedRow();
      await page.keyboard.press("j");
      const moved = await page
        .waitForFunction((b) => {
          const k = document.activeElement?.closest("tr[data-row-key]")?.getAttribute("data-row-key") ?? null;
          return k !== null && k !== b;
        }, before, { timeout: 2_000 })
        .then(() => true, () => false);
      const key = await focusedRow();
      if (moved && key && !taken.has(key)) return key;
    }
    throw new Error(`50 presses of j reached no undecided row (focus on row ${await focusedRow()})`);
  };
  /**
   * Tab until `target` is the focused element (compared by identity, the target found by role and
   * accessible name); the number of Tabs pressed. Fails naming what the Tabs reached.
   */
  const tabTo = async (p: Page, target: Locator) => {
    await target.waitFor();
    const seen: string[] = [];
    for (let tabs = 0; tabs <= MAX_TABS; tabs++) {
      if (await target.evaluate((el) => el === document.activeElement)) return tabs;
      if (tabs === MAX_TABS) break;
      await p.keyboard.press("Tab");
      seen.push(
        await p.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return "<body>";
          const name = el.getAttribute("aria-label") ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? "";
          return `${el.tagName.toLowerCase()} "${name.trim().replace(/\s+/g, " ").slice(0, 40)}"`;
        }),
      );
    }
    throw new Error(`${MAX_TABS} Tabs never reached ${target}; reached: ${seen.slice(0, 120).join(" | ")}`);
  };
  const perMinute = (n: number, ms: number) => ((n / ms) * 60_000).toFixed(1);
  const report = (way: string, ms: number, tabs: number) =>
    console.log(`${way.padEnd(11)} ${N} decisions in ${(ms / 1000).toFixed(1)} s = ${perMinute(N, ms)} decisions per minute (${(tabs / N).toFixed(1)} Tabs per decision)`);

  const decided = new Set<string>();
  for (const way of WAYS) {
    let tabs = 0;
    const t0 = Date.now();
    if (way === "one-by-one") {
      for (let i = 0; i < N; i++) {
        const key = await nextRow(decided);
        decided.add(key);
        // The detail of the selected skill: its URL state has arrived with an Activate button.
        await page.waitForURL((u) => u.searchParams.get("skill") === key);
        tabs += await tabTo(page, page.locator("#skill-detail").getByRole("button", { name: "Activate as user", exact: true }));
        await page.keyboard.press("Enter");
        const dialog = page.getByRole("dialog");
        tabs += await tabTo(page, dialog.getByRole("textbox"));
        await page.keyboard.type("reviewed");
        tabs += await tabTo(page, dialog.getByRole("button", { name: "Activate as user", exact: true }));
        await page.keyboard.press("Enter");
        await gone(key);
      }
    } else {
      const picked: string[] = [];
      for (let i = 0; i < N; i++) {
        const key = await nextRow(decided);
        decided.add(key);
        picked.push(key);
        await page.keyboard.press("x");
        await page.locator(`tr[data-row-key="${key}"] input[type="checkbox"]:checked`).waitFor();
      }
      await page.keyboard.press("a");
      const dialog = page.getByRole("dialog");
      tabs += await tabTo(page, dialog.getByRole("textbox"));
      await page.keyboard.type("reviewed");
      tabs += await tabTo(page, dialog.getByRole("button", { name: `Activate ${N} skills`, exact: true }));
      await page.keyboard.press("Enter");
      for (const key of picked) await gone(key);
    }
    report(way, Date.now() - t0, tabs);
  }
  // Every decision took effect (a row can leave the list for other reasons).
  const active = (await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE id = ANY($1) AND status = 'ACTIVE'", [[...decided]])).rows[0].n as number;
  if (active !== decided.size) throw new Error(`${decided.size} skills decided, ${active} active`);
} finally {
  await browser.close();
  await server.stop();
}
