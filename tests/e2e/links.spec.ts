// Links everywhere, in Chromium with data sent through the API: a run page's thread, class,
// skill and account links open what they name; the audit log names its targets and finds an
// account by its plain id (never showing the pseudonym); traces page and search their threads
// and open a step's arguments, result and timing; the agent switcher and the URL agree on
// traces, runs, run and agent pages. At 1440 px, then 375 px; screenshots links-*.png.
import type { Page, Request } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD } from "../helpers/server";
import { expect, test, snapshot } from "./fixtures";

const AGENT = "e2e-links-bot";
const OTHER = "e2e-other-bot";
const ACCOUNT = "acct-e2e-links";
const auth = { authorization: `Bearer ${ADMIN_KEY}` };
const TOOLS = [
  { name: "lookup_order", description: "Find an order" },
  { name: "issue_refund", description: "Refund an order" },
];
const steps = (order: string, t0 = Date.parse("2026-11-30T10:00:00Z")) => [
  { tool: "lookup_order", arguments: { order_id: order }, result: { status: "paid" }, timestamp: new Date(t0).toISOString() },
  { tool: "issue_refund", arguments: { order_id: order, amount: 12.5 }, result: { accepted: true }, timestamp: new Date(t0 + 1500).toISOString() },
];

const switcher = (page: Page) => page.getByRole("banner").getByRole("combobox", { name: "Agent" });

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("run page links navigate, audit names targets and finds an account, traces page and expand, switcher and URL agree", async ({ page, request, server }) => {
  // One walk through seven pages at two widths: more than the default two minutes on two cores.
  test.slow();
  for (const [id, name] of [
    [AGENT, "E2E links bot"],
    [OTHER, "E2E other bot"],
  ]) {
    const put = await request.put(`/api/v1/agents/${id}`, { headers: auth, data: { name, tools: TOOLS, learning: { require_shadow: false, auto_activate: true, promotion_every_n_runs: 0, learning_scope: "user" } } });
    expect(put.status(), await put.text()).toBe(200);
  }
  // A learned skill, then a run it covers, in a thread, with that skill supplied.
  for (let i = 0; i < 6; i++) {
    const r = await request.post(`/api/v1/agents/${AGENT}/workflows`, { headers: auth, data: { workflow_id: `learn-${i}`, user_id: ACCOUNT, query: `Refund order L${i}`, steps: steps(`L${i}`), outcome: "success" } });
    expect(r.status(), await r.text()).toBe(201);
  }
  const cycle = await request.post(`/api/v1/agents/${AGENT}/promotion-cycles`, { headers: auth });
  expect(cycle.status(), await cycle.text()).toBe(200);
  const skillId = (await cycle.json()).promoted[0] as string;
  const skill = await (await request.get(`/api/v1/skills/${skillId}`, { headers: auth })).json();
  const posted = await request.post(`/api/v1/agents/${AGENT}/workflows`, {
    headers: auth,
    data: { workflow_id: "linked-run", user_id: ACCOUNT, thread_id: "thread-e2e-links", root_trace_id: "trace-e2e-links", query: "Refund order Z9", steps: steps("Z9"), skills_activated: [skillId], outcome: "success" },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const run = await posted.json();
  expect(run.promoted_skill_id).toBe(skillId);
  // 55 more threads: two pages of 50.
  const batch = await request.post(`/api/v1/agents/${AGENT}/workflows/batch`, {
    headers: auth,
    data: { workflows: Array.from({ length: 55 }, (_, i) => ({ workflow_id: `page-${i}`, user_id: `acct-page-${i % 4}`, thread_id: `thread-page-${i}`, query: `Refund order P${i}`, steps: steps(`P${i}`), outcome: "success" })) },
  });
  expect(batch.status()).toBe(207);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/runs/${run.id}`);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Run linked-run" })).toBeVisible();
  // The run page is one agent's record: the switcher shows that agent.
  await expect(switcher(page)).toHaveValue(AGENT);
  const facts = page.locator("dl");
  await expect(facts.getByRole("link", { name: `${skill.name} v${skill.version}` })).toHaveCount(2);
  await snapshot(page, `links-run.png`);

  // Thread → its timeline, scoped to the run's agent in the URL and the switcher.
  await facts.getByRole("link", { name: "thread-e2e-links" }).click();
  await expect(page).toHaveURL(/\/traces\?agent=e2e-links-bot&user_id=acct-e2e-links&thread_id=thread-e2e-links#trace-timeline$/);
  await expect(page.getByRole("heading", { name: "Thread thread-e2e-links" })).toBeVisible();
  await expect(switcher(page)).toHaveValue(AGENT);
  const timeline = page.locator("#trace-timeline");
  await expect(timeline.getByText("decided by reported by the agent")).toBeVisible();
  const step = timeline.getByTestId("trace-step").first();
  await expect(step.getByText("Arguments")).toBeHidden();
  await step.locator("summary").click();
  await expect(step.getByText("Arguments")).toBeVisible();
  await expect(step.getByText("Result")).toBeVisible();
  await expect(step.getByText("Duration: ≤ 1.50 s (until the next step)")).toBeVisible();
  await expect(step.getByLabel("Arguments of step 1")).toContainText('"order_id": "Z9"');
  // Timeline events link to the class and the account's persona page.
  await expect(timeline.getByRole("link", { name: run.canonical_hash.slice(0, 12) })).toHaveAttribute("href", /\/workflows\?agent=e2e-links-bot&class=/);
  await expect(timeline.getByRole("link", { name: ACCOUNT }).first()).toHaveAttribute("href", `/persona-evolution?user_id=${ACCOUNT}`);
  await snapshot(page, `links-timeline.png`);
  await page.goBack();

  // Trajectory class → the class panel; covered by skill → the skill panel; user → persona page.
  await facts.getByRole("link", { name: run.canonical_hash }).click();
  await expect(page).toHaveURL(/\/workflows\?.*class=/);
  await expect(page.locator("#class-detail")).toContainText(run.canonical_hash.slice(0, 12));
  await page.goBack();
  await facts.getByRole("link", { name: `${skill.name} v${skill.version}` }).last().click();
  await expect(page).toHaveURL(new RegExp(`/skills\\?agent=${AGENT}&skill=${skillId}`));
  await expect(page.locator("#skill-detail")).toContainText(skill.name);
  await page.goBack();
  await facts.getByRole("link", { name: ACCOUNT }).click();
  await expect(page).toHaveURL(`/persona-evolution?user_id=${ACCOUNT}`);
  await expect(page.getByRole("heading", { name: "Persona evolution" })).toBeVisible();

  // Audit: targets by name; the account's events found by its plain id, its pseudonym never shown.
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("link", { name: "agent E2E links bot" }).first()).toHaveAttribute("href", `/agents/${AGENT}`);
  await expect(page.getByRole("link", { name: `${skill.name} v${skill.version}` }).first()).toBeVisible();
  await expect(page.locator("td code", { hasText: "persona_profile.viewed" })).toHaveCount(0);
  await page.getByLabel("Account id").fill(ACCOUNT);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/account=acct-e2e-links/);
  await expect(page.getByText("No events match these filters")).toBeVisible();
  await page.getByRole("link", { name: "Show page views" }).click();
  const row = page.getByRole("row", { name: /persona_profile\.viewed/ });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("link", { name: `account ${ACCOUNT}` }).first()).toHaveAttribute("href", `/persona-evolution?user_id=${ACCOUNT}`);
  const pseudonym = (await server.sql.query(`SELECT target_id FROM audit_events WHERE action = 'persona_profile.viewed'`)).rows[0].target_id as string;
  expect(await page.content()).not.toContain(pseudonym);
  // Every column, the event's sentence included, fits at 1440 px: nothing is cut off or scrolled.
  expect(await page.locator("table").evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
  await snapshot(page, `links-audit.png`);

  // Traces: 56 threads in pages of 50, searchable; the switcher writes the page's own parameter.
  await page.goto("/traces");
  await switcher(page).selectOption(AGENT);
  await expect(page).toHaveURL(`/traces?agent=${AGENT}`);
  await expect(page.locator(`form[role="search"] select[name="agent"]`)).toHaveValue(AGENT);
  await expect(page.getByText("56 in all")).toBeVisible();
  await expect(page.getByTestId("thread")).toHaveCount(50);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(new RegExp(`/traces\\?agent=${AGENT}&after=`));
  await expect(page.getByTestId("thread")).toHaveCount(6);
  await page.getByLabel("Search").fill("thread-page-4");
  await page.getByRole("button", { name: "Show traces" }).click();
  await expect(page).toHaveURL(/q=thread-page-4/);
  await expect(page.getByTestId("thread")).toHaveCount(11); // 4 and 40–49
  await snapshot(page, `links-traces.png`);
  // An old link's spelling is read as the same scope.
  await page.goto(`/traces?agent_id=${OTHER}`);
  await expect(switcher(page)).toHaveValue(OTHER);
  await switcher(page).selectOption(AGENT);
  await expect(page).toHaveURL(`/traces?agent=${AGENT}`);

  // Runs: the switcher filters the list; agent pages scope the switcher to their agent.
  // Its ~50 links are prefetched only when reached for, not when they scroll into view.
  const prefetched: string[] = [];
  const onRequest = (r: Request) => void (r.headers()["next-router-prefetch"] && prefetched.push(new URL(r.url()).pathname));
  page.on("request", onRequest);
  await page.goto("/workflows/runs");
  await page.waitForLoadState("networkidle");
  expect(prefetched).toEqual([]);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Agents" }).hover();
  await expect.poll(() => prefetched).toContain("/agents");
  page.off("request", onRequest);
  await expect(switcher(page)).toHaveValue("");
  await switcher(page).selectOption(OTHER);
  await expect(page).toHaveURL(`/workflows/runs?agent=${OTHER}`);
  await expect(page.getByText("linked-run")).toHaveCount(0);
  await switcher(page).selectOption(AGENT);
  await expect(page).toHaveURL(`/workflows/runs?agent=${AGENT}`);
  // The batch's runs share one created_at: which of them fill the first page is the id's tie-break.
  await expect(page.getByRole("link", { name: /^page-\d+$/ }).first()).toBeVisible();
  await page.goto(`/agents/${OTHER}/settings`);
  await expect(switcher(page)).toHaveValue(OTHER);
  await switcher(page).selectOption(AGENT);
  await expect(page).toHaveURL(`/agents/${AGENT}/settings`);

  // 375 px: the run page and its thread's timeline, a step opened, without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/workflows/runs/${run.id}`);
  await expect(switcher(page)).toHaveValue(AGENT);
  await noHorizontalScroll(page);
  await page.locator("dl").getByRole("link", { name: "thread-e2e-links" }).click();
  await page.locator("#trace-timeline").getByTestId("trace-step").nth(1).locator("summary").click();
  await expect(page.locator("#trace-timeline").getByLabel("Result of step 2")).toContainText('"accepted": true');
  await noHorizontalScroll(page);
  await snapshot(page, `links-375.png`);
});
