import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { "@": root };

/** Unit files that need a worker of their own (see the "unit" project), each with its reason. */
const isolatedUnitFiles: string[] = [];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        // The pure unit files share their worker: a file imports what the files before it already
        // imported instead of evaluating the module graph again (`isolate: false`). A file here must
        // leave no state behind (environment, globals, spies, timers, listeners): one that needs a
        // fresh module graph goes in `isolatedUnitFiles`, with its reason.
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          exclude: isolatedUnitFiles,
          isolate: false,
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Files that start the app, its stores or child processes (test/api, test/pg), and the unit
        // files above that need a fresh module graph: a fresh worker each. `npm run test:unit` and
        // `npm test` run both projects; for a few files: `npx vitest run --project 'unit*' <files>`.
        resolve: { alias },
        test: {
          name: "unit-isolated",
          include: ["test/api/**/*.test.ts", "test/pg/**/*.test.ts", ...isolatedUnitFiles],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Bounded soak tests, not in the default run: `npm run soak`.
        resolve: { alias },
        test: {
          name: "soak",
          include: ["test/soak/**/*.test.ts"],
          environment: "node",
          testTimeout: 150_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // A folder for the example runs seeded once (the files wanting them start on a copy) and one
          // Chromium that every file connects to (harness.ts).
          globalSetup: ["test/e2e/examples-setup.ts", "test/e2e/browser-setup.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A page on a loaded machine takes seconds to show what a poll waits for (default 1 s).
          expect: { poll: { timeout: 30_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
