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
  test: { include: ["tests/unit/**/*.test.ts", "packages/*/test/**/*.test.ts"], environment: "node" },
});
