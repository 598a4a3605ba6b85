/**
 * The browser tests' global set-up for the example runs: a folder where the first test file
 * wanting them seeds them once, by the built app itself (harness.ts, seededExamplesDataDir: a
 * server started with RUNLENS_EXAMPLES=on, stopped once every example has its drill-down), and
 * every file wanting them then starts its own server on a copy instead of seeding them again.
 * Every file gets its own copy: nothing one file does is seen by another. A run of files without
 * examples seeds nothing; test/e2e/server-entry.test.ts still seeds at its server's start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

/** In the folder provided as `examplesTemplate`: the seeded data directory. */
export const TEMPLATE_DATA = "data";
/** Created (exclusively) by the file that seeds the examples. */
export const TEMPLATE_CLAIM = "claimed";
/** Written once the data directory is complete. */
export const TEMPLATE_READY = "ready";
/** Written, with what went wrong and the server's output, if the seeding failed. */
export const TEMPLATE_FAILED = "failed";

declare module "vitest" {
  export interface ProvidedContext {
    examplesTemplate: string;
  }
}

/**
 * Names a folder shared by several runs of the browser tests started side by side: the examples are
 * then seeded once for all of them, and the folder is left for whoever set it to remove.
 */
export const SHARED_TEMPLATE_ENV = "RUNLENS_E2E_EXAMPLES_TEMPLATE";

export default function setup(project: TestProject): () => void {
  const shared = process.env[SHARED_TEMPLATE_ENV];
  if (shared) {
    fs.mkdirSync(shared, { recursive: true });
    project.provide("examplesTemplate", shared);
    return () => {};
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-examples-"));
  project.provide("examplesTemplate", folder);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
