import { defineConfig } from "vitest/config";
import path from "node:path";

// Unit tests: pure logic, no database, no server; the packages' own (packages/*/test) too.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  // One module graph per worker for all its files (isolate: false): a fresh one per file made
  // importing 35 of the suite's 50 s of CPU (measured). Environment stubs end with their file.
  test: {
    include: ["tests/unit/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    environment: "node",
    isolate: false,
    setupFiles: ["tests/helpers/restore-env.ts"],
  },
});
