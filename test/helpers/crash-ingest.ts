import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { INTERRUPTED_MESSAGE } from "@/lib/store/interrupted-ingest";
import { trtRecordText } from "../fixtures/bad/generate-big";
import type { HoldMs } from "./hold-ingests";
import { idParams, openTestApp } from "./test-app";

/**
 * The set-up of the crash-in-an-ingest tests (SQLite and PostgreSQL): a TensorRT-LLM perf-metrics
 * file large enough that its ingest is still running when killed, and a child process uploading
 * it through the real route (jiti runs the TypeScript sources, test/helpers/upload-child.ts); then the checks after the restart,
 * the same on both stores.
 */
const ROOT = path.resolve(__dirname, "../..");

/**
 * Requests in the file. The child holds its commit once every row is written (hold-ingests.ts),
 * so the kill lands mid-ingest whatever the size: a few thousand rows are enough.
 */
export const CRASH_RECORDS = 5_000;
/**
 * How long a test waits for a child to reach the moment of the kill: the child loads and compiles
 * the sources first, minutes on a loaded machine. A timeout shows what the child printed.
 */
export const CHILD_WAIT_MS = 240_000;
/** A crash test's own time limit: the child's wait, then the restart and a re-ingest. */
export const CRASH_TEST_MS = CHILD_WAIT_MS + 180_000;
/** The heartbeat age after which the next process calls the killed ingest interrupted. */
export const CRASH_STALE_MS = 1000;

/**
 * A temporary folder for the calling file's crash tests, made before they run and removed after
 * them; `write(dir)` writes the file the child ingests in it and returns its path. Read `.dir`,
 * `.input` and `.dataDir` (the data directory of the killed ingest, in the folder) inside tests.
 */
export function crashTestFolder(
  prefix: string,
  write: (dir: string) => string | Promise<string>,
  timeoutMs?: number,
): { dir: string; input: string; dataDir: string } {
  const folder = { dir: "", input: "", dataDir: "" };
  beforeAll(async () => {
    folder.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folder.dataDir = path.join(folder.dir, "data");
    folder.input = await write(folder.dir);
  }, timeoutMs);
  afterAll(() => {
    if (folder.dir) fs.rmSync(folder.dir, { recursive: true, force: true });
  });
  return folder;
}

/** Writes a perf-metrics file of `records` requests (CRASH_RECORDS by default) into dir; returns its path. */
export function writeCrashInput(dir: string, records = CRASH_RECORDS): string {
  fs.mkdirSync(dir, { recursive: true });
  const input = path.join(dir, "perf_metrics-0.jsonl");
  const fd = fs.openSync(input, "w");
  for (let i = 0; i < records; i += 1000) {
    const lines: string[] = [];
    for (let k = i; k < Math.min(i + 1000, records); k++) lines.push(trtRecordText(k));
    fs.writeSync(fd, lines.join("\n") + "\n");
  }
  fs.closeSync(fd);
  return input;
}

export interface IngestChild {
  /** What the child printed so far, stdout and stderr. */
  output: () => string;
  /** Waits for p; if it fails, kills the child and fails with what the child printed. */
  until: <T>(p: Promise<T>) => Promise<T>;
  /** SIGKILLs the child; resolves with the signal it died of. */
  kill: () => Promise<NodeJS.Signals | null>;
}

/**
 * Starts a child (test/helpers/upload-child.ts) uploading input, a file or a folder, into the
 * store at DATA_DIR / DATABASE_URL, its ingests held as `hold` says; other entries of env (e.g.
 * RUNLENS_DRILLDOWN) are passed on.
 */
export function spawnIngest(
  input: string,
  env: { DATA_DIR: string; DATABASE_URL: string } & Record<string, string>,
  hold: HoldMs = {},
): IngestChild {
  return spawnTsChild(
    path.join(ROOT, "test/helpers/upload-child.ts"),
    [input, String(hold.commitMs ?? 0), String(hold.drilldownMs ?? 0)],
    env,
  );
}

/**
 * Starts a TypeScript script (run by jiti, `@` resolving to the project) in a child process on the
 * store at DATA_DIR / DATABASE_URL; what spawnIngest and the other crash tests' children run on.
 */
export function spawnTsChild(
  script: string,
  args: string[],
  env: { DATA_DIR: string; DATABASE_URL: string } & Record<string, string>,
): IngestChild {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/jiti/lib/jiti-cli.mjs"), script, ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        JITI_ALIAS: JSON.stringify({ "@": ROOT }),
        ...env,
        RUNLENS_EXAMPLES: "off",
        // The child keeps the default staleness: with CRASH_STALE_MS its own sweeper took its
        // run for interrupted whenever parsing held the heartbeat back that long (a loaded
        // machine), and the run was gone before the kill. Only the restart uses CRASH_STALE_MS.
        RUNLENS_INGEST_STALE_MS: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += String(d)));
  child.stderr.on("data", (d) => (output += String(d)));
  let exitedEarly: (why: Error) => void = () => {};
  const earlyExit = new Promise<never>((_, reject) => (exitedEarly = reject));
  earlyExit.catch(() => {});
  const exited = new Promise<NodeJS.Signals | null>((r) =>
    child.once("exit", (code, signal) => {
      exitedEarly(new Error(`the uploading child exited (code ${code}, signal ${signal}) before that`));
      r(signal);
    }),
  );
  return {
    output: () => output,
    // A child that dies is not waited for until the timeout; either way the failure says what was
    // awaited and shows everything the child printed.
    until: (p) =>
      Promise.race([p, earlyExit]).catch((err) => {
        child.kill("SIGKILL");
        throw new Error(
          `${(err as Error).message}\n--- the uploading child printed:\n${output || "(nothing)"}`,
        );
      }),
    kill: () => {
      child.kill("SIGKILL");
      return exited;
    },
  };
}

/** Waits until the killed ingest's heartbeat is stale, as a restart long enough after would find it. */
export const waitForStaleHeartbeat = () => new Promise((r) => setTimeout(r, CRASH_STALE_MS + 200));

/**
 * "Restart": once the killed ingest's heartbeat is stale, a new app context on the same data
 * directory (and database, when DATABASE_URL is given), as the next process would open it.
 */
export async function restartAfterCrash(env: { DATA_DIR: string; DATABASE_URL?: string }) {
  await waitForStaleHeartbeat();
  const opened = await openTestApp({ ...env, RUNLENS_INGEST_STALE_MS: String(CRASH_STALE_MS) });
  // The start-up sweep has found the killed ingest with CRASH_STALE_MS. From here on the restarted
  // server judges its own ingests (a re-ingest, a rebuild) by the default staleness: with 1 s, a
  // live ingest whose heartbeat a loaded machine held back that long was failed as interrupted.
  opened.app.config.ingestStaleMs = DEFAULT_STALE_MS;
  return opened;
}

/** The staleness a server uses unless configured (lib/server/config.ts). */
const DEFAULT_STALE_MS = 60_000;

/** After the restart: the run is failed as an interrupted ingest, with nothing of it half shown. */
export async function expectInterruptedRun(runId: string) {
  const run = await (await getRun(new Request(`http://localhost/api/runs/${runId}`), idParams(runId))).json();
  expect(run.status).toBe("failed");
  expect(run.error).toBe(INTERRUPTED_MESSAGE);
  expect(run.timeBreakdown).toBeNull();
  expect(run.summaryReadyAt).toBeNull();
  expect(run.drilldownReadyAt).toBeNull();
  return run;
}

/** Re-ingests the run from its stored raw files; expects it ready and resolves with its summary. */
export async function expectReingestReady(runId: string) {
  const again = await reingest(
    new Request(`http://localhost/api/runs/${runId}/reingest`, { method: "POST" }),
    idParams(runId),
  );
  expect(again.status).toBe(200);
  const done = await again.json();
  expect(done.status).toBe("ready");
  expect(done.error).toBeNull();
  return done;
}

/** After a re-ingest: the run's aiperf request list answers its `count` requests, five a page. */
export async function expectRequestList(runId: string, count: number): Promise<void> {
  const list = await (
    await listRequests(
      new Request(`http://localhost/api/runs/${runId}/aiperf/requests?sort=ttft&limit=5`),
      idParams(runId),
    )
  ).json();
  expect(list.total).toBe(count);
  expect(list.rows).toHaveLength(5);
}
