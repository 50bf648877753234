import { defineConfig } from "vitest/config";
import path from "node:path";

// Integration tests: each file starts the built console on a fresh database (PGlite or
// PostgreSQL, chosen by PROCTOR_TEST_DB) and talks to it over HTTP. Files run one at a time
// so that two servers never compete for the 2 cores.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/integration/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
