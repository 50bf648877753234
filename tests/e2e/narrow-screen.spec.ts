// A phone's width (375 px) in Chromium: the console's main pages fit it, never scrolling
// sideways (wide tables scroll inside their own region instead of the page).
import { expect, test } from "./fixtures";
import { seedMainPages, signInAt } from "./main-pages";

test("the main pages have no horizontal scroll at 375 px", async ({ page, request }) => {
  test.slow();
  const pages = await seedMainPages(request);
  await page.setViewportSize({ width: 375, height: 800 });
  await signInAt(page, "/");
  const overflowing: string[] = [];
  for (const { path, heading } of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true, level: 1 })).toBeVisible();
    // Lists the page fetches in the browser (API keys) are measured once they are in.
    await page.waitForLoadState("networkidle");
    const { scrollWidth, clientWidth, widest } = await page.evaluate(() => {
      const root = document.documentElement;
      // The outermost elements reaching past the right edge, to say what overflows.
      const past = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5 && !e.parentElement?.closest("[data-past]"));
      const widest = past.slice(0, 3).map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 4).join(".")}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest };
    });
    if (scrollWidth > clientWidth) overflowing.push(`${path}: ${scrollWidth} > ${clientWidth} (${widest.join(", ")})`);
  }
  expect(overflowing).toEqual([]);
});
