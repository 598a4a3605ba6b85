import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { "@": root };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/api/**/*.test.ts", "test/pg/**/*.test.ts"],
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
