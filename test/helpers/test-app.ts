import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, onTestFinished } from "vitest";
import { getAppContext, resetAppContext, type AppContext } from "@/lib/server/app-context";

export const FIXTURES = path.resolve(__dirname, "../fixtures");

export function fixture(rel: string): string {
  return path.join(FIXTURES, rel);
}

/**
 * A fresh app context on a temporary data directory (SQLite), or on a fresh PostgreSQL schema
 * when `databaseUrl` is given. Returns a cleanup function.
 */
export async function openTestApp(env: Record<string, string | undefined> = {}): Promise<{
  app: AppContext;
  dataDir: string;
  cleanup: () => Promise<void>;
}> {
  await resetAppContext();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-test-"));
  const saved: Record<string, string | undefined> = {};
  const vars: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    RUNLENS_EXAMPLES: "off",
    DATABASE_URL: undefined,
    RUNLENS_API_TOKEN: undefined,
    RUNLENS_PRIVATE: undefined,
    RUNLENS_MAX_UPLOAD_BYTES: undefined,
    // Uploads answer with their drill-down built, so a test reads its request lists at once;
    // the tests of the background drill-down ask for "background".
    RUNLENS_DRILLDOWN: "inline",
    // Runs a test stores as rows stay rows; the rebuild's own tests turn it on.
    RUNLENS_REBUILD_ROW_RUNS: "off",
    ...env,
  };
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const app = await getAppContext();
  return {
    app,
    dataDir,
    cleanup: async () => {
      await resetAppContext();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The same as openTestApp, by the name the tests know it by (it is no React hook). */
export const useTestApp = openTestApp;

/** A fresh app for the test that calls this, cleaned up when that test finishes. */
export async function appForTest(
  env: Record<string, string | undefined> = {},
): Promise<{ app: AppContext; dataDir: string }> {
  const t = await openTestApp(env);
  onTestFinished(t.cleanup);
  return { app: t.app, dataDir: t.dataDir };
}

/**
 * A fresh app before every test of the calling file or describe block, cleaned up after it.
 * Read `.app` inside tests; `reopen(env)` swaps it for one on other settings.
 */
export function freshAppEachTest(env: Record<string, string | undefined> = {}): {
  app: AppContext;
  reopen(env: Record<string, string | undefined>): Promise<AppContext>;
} {
  let cleanup: (() => Promise<void>) | undefined;
  const open = async (e: Record<string, string | undefined>) => {
    await cleanup?.();
    const t = await openTestApp(e);
    cleanup = t.cleanup;
    holder.app = t.app;
    return t.app;
  };
  const holder = { app: undefined as unknown as AppContext, reopen: open };
  beforeEach(async () => {
    await open(env);
  });
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });
  return holder;
}

/** A multipart POST /api/runs request built from files on disk or in memory. */
export function uploadRequest(
  files: Array<{ name: string; path?: string; content?: string | Buffer }>,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Request {
  const form = new FormData();
  for (const f of files) {
    const data = f.content !== undefined ? f.content : fs.readFileSync(f.path!);
    form.append("file", new Blob([typeof data === "string" ? data : new Uint8Array(data)]), f.name);
  }
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return new Request("http://localhost/api/runs", { method: "POST", body: form, headers });
}

/** A POST /api/runs request whose multipart body the test feeds as it likes. */
export function streamingUploadRequest(body: ReadableStream<Uint8Array>, boundary: string): Request {
  return new Request("http://localhost/api/runs", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
}

/** Uploads files through POST /api/runs and returns the new run's id; the upload must be accepted. */
export async function uploadRun(
  files: Parameters<typeof uploadRequest>[0],
  fields: Record<string, string> = {},
): Promise<string> {
  const { POST } = await import("@/app/api/runs/route");
  const res = await POST(uploadRequest(files, fields));
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** The records and summary a generated aiperf run (test/generators/aiperf.mjs) wrote in `dir`, as uploadRequest takes them. */
export function aiperfExportFiles(dir: string): Array<{ name: string; path: string }> {
  return ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
    name,
    path: path.join(dir, name),
  }));
}

/**
 * Generates an aiperf run of `opts` (records only, no CSV) in a temporary folder, uploads its
 * records and summary with `fields`, and returns the new run's id.
 */
export async function uploadGeneratedAiperf(
  opts: Record<string, unknown>,
  fields: Record<string, string> = {},
): Promise<string> {
  // @ts-expect-error plain ESM generator without type declarations
  const { generateAiperfRun } = await import("../generators/aiperf.mjs");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-aiperf-"));
  try {
    await generateAiperfRun(dir, { csv: false, ...opts });
    return await uploadRun(aiperfExportFiles(dir), fields);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

/** Waits until the run is `ready` with its drill-down built, as `GET /api/runs/{id}` reports it. */
export async function waitForDrilldown(id: string, timeoutMs = 240_000): Promise<void> {
  const { GET } = await import("@/app/api/runs/[id]/route");
  const { waitUntil } = await import("./wait.mjs");
  await waitUntil(
    "the run's drill-down is ready",
    async () => {
      const res = await GET(new Request(`http://localhost/api/runs/${id}`), idParams(id));
      const run = (await res.json()) as { status: string; drilldownReadyAt?: number | null };
      return run.status === "ready" && run.drilldownReadyAt != null;
    },
    { timeoutMs },
  );
}
