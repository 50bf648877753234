// WCAG 2.1 AA in Chromium with axe-core (injected from node_modules by @axe-core/playwright):
// the console's main pages, each loaded once in the light theme and once in the dark one, have
// no serious or critical violation (contrast, names, keyboard-reachable scroll regions…).
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { seedMainPages, signInAt } from "./main-pages";

const BLOCKING = new Set(["serious", "critical"]);

test("the main pages have no serious or critical axe violations in light and dark mode", async ({ page, request }) => {
  test.slow();
  const pages = await seedMainPages(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAt(page, "/");
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    // The theme follows the system's choice until the reader picks one (theme-toggle.tsx).
    await page.emulateMedia({ colorScheme: scheme });
    for (const { path, heading } of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, exact: true, level: 1 })).toBeVisible();
      // Lists the page fetches in the browser (API keys) are measured once they are in.
      await page.waitForLoadState("networkidle");
      await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const v of violations.filter((v) => BLOCKING.has(v.impact ?? ""))) {
        found.push(`${scheme} ${path}: ${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`).join(" | ")}`);
      }
    }
  }
  expect(found).toEqual([]);
});
