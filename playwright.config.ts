// Browser tests drive Debian's Chromium against the built console, started on a fresh
// database by the fixture in tests/e2e/fixtures.ts (never a downloaded browser).
import { defineConfig } from "@playwright/test";

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tests/e2e/artifacts/results",
  fullyParallel: false,
  workers: 1,
  // One retry: npm test lists a flow that passed only on it as flaky, with its first failure.
  retries: 1,
  // Whole flows at two widths, beside the integration suites on 2 cores: generous, never a speed check.
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.PROCTOR_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    // A click, fill or navigation that never happens fails in a minute, naming its step, instead
    // of waiting out the whole flow's timeout (account.spec once timed out at 240 s, unnamed).
    actionTimeout: 60_000,
    navigationTimeout: 60_000,
    screenshot: "only-on-failure",
    trace: "off",
  },
});
