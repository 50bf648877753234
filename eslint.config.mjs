// `npm run lint` (and the `lint` suite of `npm test`): Next's core-web-vitals and TypeScript
// configs (React, React hooks, jsx-a11y, import, @next/next) and typescript-eslint's recommended
// rules, over every source file: app, components, lib, scripts, tests, packages, examples and
// the root config files.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores([
    "node_modules/**",
    ".next*/**",
    "lib/db/generated/**",
    "packages/*/dist/**",
    ".data/**",
    "prisma/**",
    "test-results/**",
    "playwright-report/**",
    "tests/e2e/artifacts/**",
    ".scratch*/**",
    // The OTLP fixture recorders: separate packages on Node 24 with their own dependencies.
    "tools/otlp-recorder/**",
    // Agent Skills folders imported byte for byte by the tests: data in other projects' style, not our code.
    "tests/fixtures/agent-skills/**",
    "next-env.d.ts",
  ]),
  ...nextVitals,
  ...nextTs,
  // After Next's TypeScript config, which lowers no-unused-vars and no-unused-expressions to warnings.
  ...tseslint.configs.recommended,
  {
    rules: {
      // How this codebase says "deliberately unused": a key left out of a copy (`{ node: _node, ...props }`)
      // and a `_`-prefixed parameter that only holds its position.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["tests/e2e/**"],
    rules: {
      // Playwright fixtures hand their value on through a callback named `use`, which the rule takes for React's use().
      "react-hooks/rules-of-hooks": "off",
    },
  },
]);
