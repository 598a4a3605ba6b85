/**
 * The browser tests' global set-up: the example runs are seeded once, by the built app itself (a
 * server started with RUNLENS_EXAMPLES=on, stopped once every example has its drill-down), into a
 * data directory that each test file wanting the examples copies (harness.ts,
 * seededExamplesDataDir) instead of seeding them again at its own server's start. Every file still
 * gets its own copy: nothing one file does is seen by another. The seeding runs in the background,
 * so files without examples do not wait for it; test/e2e/server-entry.test.ts still seeds at start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, ROOT, startNextServer } from "../helpers/next-server.mjs";
import { waitUntil } from "../helpers/wait.mjs";

/** In the folder provided as `examplesTemplate`: the seeded data directory. */
export const TEMPLATE_DATA = "data";
/** Written once the data directory is complete. */
export const TEMPLATE_READY = "ready";
/** Written, with what went wrong and the server's output, if the seeding failed. */
export const TEMPLATE_FAILED = "failed";
/** How long the seeding may take (a server start and 9 ingests), on a loaded machine. */
const SEED_MS = 240_000;

declare module "vitest" {
  export interface ProvidedContext {
    examplesTemplate: string;
  }
}

interface RunsList {
  runs: Array<{ name: string; status: string; drilldownReadyAt?: unknown }>;
}

export default function setup(project: TestProject): () => Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-examples-"));
  project.provide("examplesTemplate", folder);
  const distDir = process.env.RUNLENS_DIST_DIR || ".next";
  let stopping = false;
  let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
  const seeded = (async () => {
    if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID")))
      throw new Error(`no production build in ${distDir}: run \`npx next build\` first`);
    server = await startNextServer({
      port: await freePort(),
      env: { DATA_DIR: path.join(folder, TEMPLATE_DATA), RUNLENS_EXAMPLES: "on", DATABASE_URL: "" },
    });
    const url = server.url;
    let seen = "no answer from /api/runs yet";
    await waitUntil(
      "every example run ready with its drill-down",
      async () => {
        if (stopping) return true;
        const { runs } = (await (await fetch(`${url}/api/runs`)).json()) as RunsList;
        const waiting = runs.filter(
          (r) => r.status === "ingesting" || (r.status === "ready" && r.drilldownReadyAt == null),
        );
        seen = `${runs.length} runs, waiting for: ${waiting.map((r) => r.name).join("; ") || "none"}`;
        return runs.length > 0 && waiting.length === 0;
      },
      { timeoutMs: SEED_MS, intervalMs: 200, seen: () => seen, output: server.logs },
    );
    await server.stop();
    if (!stopping) fs.writeFileSync(path.join(folder, TEMPLATE_READY), "");
  })().catch((err: Error) => {
    fs.writeFileSync(
      path.join(folder, TEMPLATE_FAILED),
      `${err.message}${server ? `\n--- the seeding server printed:\n${server.logs() || "(nothing)"}` : ""}`,
    );
  });
  return async () => {
    stopping = true;
    await server?.stop();
    await seeded;
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  };
}
