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
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    if (scrollWidth > clientWidth) overflowing.push(`${path}: ${scrollWidth} > ${clientWidth}`);
  }
  expect(overflowing).toEqual([]);
});
