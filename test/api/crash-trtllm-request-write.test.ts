/**
 * A server killed (SIGKILL) while DuckDB writes a TensorRT-LLM run's Parquet request file
 * (`trtllm-request-rows`, lib/store/columnar/trtllm-request-file.ts): once while the staged rows
 * are being moved to segments (the summary still handing out requests), once while the final COPY
 * writes the run's file from them. After the restart the run is failed with no request file named
 * and nothing derived kept, its raw files are byte-identical (sha256) to the uploaded ones, what
 * the killed write left in the cache's temp folder is swept, and a re-ingest writes the whole file
 * and gives the same rows and answers as an upload of the same files that was never killed. On
 * SQLite and PostgreSQL.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as sampleRequests } from "@/app/api/runs/[id]/trtllm/requests/route";
import { TRTLLM_REQUESTS_FILE } from "@/lib/store/columnar/trtllm-request-file";
import type { Db } from "@/lib/store/db";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import {
  expectInterruptedRun,
  expectReingestReady,
  restartAfterCrash,
  spawnIngest,
  crashTestFolder,
  CHILD_WAIT_MS,
  CRASH_TEST_MS,
} from "../helpers/crash-ingest";
import { freshSchema, TEST_STORES } from "../helpers/pg-schema";
import { idParams, openTestApp, uploadRun } from "../helpers/test-app";
import { storedTrtllmRows, trtllmRequestsStoredAs } from "../helpers/trtllm-request-rows";
import { waitUntil } from "../helpers/wait.mjs";

/**
 * Requests: their rows' text (some 40 MB of steps, times and segments) makes several segments of
 * the default 16 MB, so the summary is still moving rows to segments, and then the COPY still
 * writing the file, when the test looks.
 */
const N = 20_000;
const SEGMENT = ".trtllm-requests-segment";

/** The moments of the kill, each as the cache's temp folder shows it. */
const MOMENTS = {
  /** Segments staged and the run's file not begun: the summary is still handing out requests. */
  "segments are written": (names: string[]) =>
    names.some((n) => n.endsWith(SEGMENT)) && !names.some((n) => n.endsWith(".parquet")),
  /** The run's file being written while its segments are still there (they go once it ends). */
  "the final COPY runs": (names: string[]) =>
    names.some((n) => n.endsWith(SEGMENT)) && names.some((n) => n.endsWith(".parquet")),
};

/** Polls the cache's temp folder until `moment` holds; resolves with the names in it then. */
function tmpFolderWhen(tmpDir: string, moment: (names: string[]) => boolean): Promise<string[]> {
  return waitUntil(
    `the request file's write in ${tmpDir}`,
    () => {
      const names = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : [];
      return moment(names) ? names : undefined;
    },
    { timeoutMs: CHILD_WAIT_MS, intervalMs: 5 },
  );
}

const folder = crashTestFolder("runlens-crash-trtllm-requests-", (dir) => {
  const input = path.join(dir, "input");
  generateTrtllmRun({ dir: input, mode: "disaggregated", requests: N, seed: 28, stepsPerRequest: 8 });
  return input;
});

/** The upload's files, by name, as the child names them (they sit at the input folder's top). */
function inputFiles(): Array<{ name: string; path: string }> {
  return fs
    .readdirSync(folder.input)
    .sort()
    .map((name) => ({ name, path: path.join(folder.input, name) }));
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Each stored raw file of the run, downloaded, as name → sha256. */
async function rawFileHashes(runId: string): Promise<Record<string, string>> {
  const run = await (await getRun(new Request(`http://localhost/api/runs/${runId}`), idParams(runId))).json();
  const out: Record<string, string> = {};
  for (const f of run.files as Array<{ id: string; name: string }>) {
    const res = await download(new Request("http://localhost/x"), {
      params: Promise.resolve({ id: runId, fileId: f.id }),
    });
    expect(res.status).toBe(200);
    out[f.name] = sha256(Buffer.from(await res.arrayBuffer()));
  }
  return out;
}

/** What the catalog keeps derived from the run: none of it may outlive a killed ingest. */
async function derivedRows(db: Db, runId: string) {
  const count = async (table: "run_column_files" | "chart_data" | "run_metric_values" | "trtllm_requests") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("run_id", "=", runId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    run_column_files: await count("run_column_files"),
    chart_data: await count("chart_data"),
    run_metric_values: await count("run_metric_values"),
    trtllm_requests: await count("trtllm_requests"),
  };
}

/** The run's summary-level answers and a sample of its requests by each order. */
async function answers(id: string) {
  const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
  const samples: Record<string, unknown> = {};
  for (const sort of ["arrival", "ttft", "e2e"]) {
    const res = await sampleRequests(
      new Request(`http://localhost/api/runs/${id}/trtllm/requests?sort=${sort}&limit=50`),
      idParams(id),
    );
    expect(res.status).toBe(200);
    samples[sort] = await res.json();
  }
  return { summary: run.summary, timeBreakdown: run.timeBreakdown, requestCount: run.requests, samples };
}

describe.each(TEST_STORES)("crash while the TensorRT-LLM request file is written (%s)", (store, pgUrl) => {
  it.each(Object.keys(MOMENTS) as Array<keyof typeof MOMENTS>)(
    "killed while %s: a failed run with its raw files, temp files swept, re-ingest writes the whole file",
    async (moment) => {
      const dataDir = path.join(folder.dir, `data-${store}-${moment.replace(/\W+/g, "-")}`);
      const schema = pgUrl ? await freshSchema(pgUrl) : null;
      const DATABASE_URL = schema?.url ?? "";
      try {
        const tmpDir = path.join(dataDir, "columnar-cache", "tmp");
        const ingest = spawnIngest(folder.input, { DATA_DIR: dataDir, DATABASE_URL });
        const seen = await ingest.until(tmpFolderWhen(tmpDir, MOMENTS[moment]));
        expect(await ingest.kill()).toBe("SIGKILL");
        expect(ingest.output()).not.toContain("finished");
        // What the killed write left (the segments, and the half-written file during the COPY),
        // aged as a restart an hour later finds them.
        const left = fs.readdirSync(tmpDir);
        expect(left.filter((n) => n.endsWith(SEGMENT)).length).toBeGreaterThan(0);
        expect(left).toEqual(expect.arrayContaining(seen.filter((n) => n.endsWith(SEGMENT))));
        const anHourAgo = new Date(Date.now() - 2 * 60 * 60_000);
        for (const n of left) fs.utimesSync(path.join(tmpDir, n), anHourAgo, anHourAgo);

        // The restart: it takes the killed ingest for interrupted (its heartbeat is stale) and
        // sweeps the temp folder.
        const uploaded = Object.fromEntries(
          inputFiles().map((f) => [f.name, sha256(fs.readFileSync(f.path))]),
        );
        let runId: string;
        const restart = await restartAfterCrash({ DATA_DIR: dataDir, DATABASE_URL });
        try {
          await waitUntil(`the killed write's temp files swept from ${tmpDir}`, () =>
            left.every((n) => !fs.existsSync(path.join(tmpDir, n))),
          );
          const db = restart.app.store.db;
          const ids = (await db.selectFrom("runs").select("id").execute()).map((r) => r.id);
          expect(ids).toHaveLength(1);
          runId = ids[0];
          const run = await expectInterruptedRun(runId);
          expect(run.requests).toBeNull();
          expect(await derivedRows(db, runId)).toEqual({
            run_column_files: 0,
            chart_data: 0,
            run_metric_values: 0,
            trtllm_requests: 0,
          });
          // The raw files as uploaded, to the byte.
          expect(await rawFileHashes(runId)).toEqual(uploaded);
        } finally {
          await restart.cleanup();
        }

        // The next process, with the usual heartbeat threshold (the restart's one second would
        // take a live ingest on a loaded machine for a dead one), re-ingests the run.
        const { app, cleanup } = await openTestApp({ DATA_DIR: dataDir, DATABASE_URL });
        try {
          const db = app.store.db;
          await expectReingestReady(runId);
          expect(await trtllmRequestsStoredAs(db, runId)).toEqual({ rows: 0, fileRows: N });
          // The re-ingest's own segments went with its write: nothing staged is left behind.
          expect(fs.readdirSync(tmpDir).filter((n) => n.endsWith(SEGMENT))).toEqual([]);
          expect(await rawFileHashes(runId)).toEqual(uploaded);
          // The same rows and answers as the same files uploaded by a process nobody killed.
          const clean = await uploadRun(inputFiles());
          const rows = (id: string) =>
            storedTrtllmRows(db, id).then((all) => all.map((r) => ({ ...r, run_id: "" })));
          const reingested = await rows(runId);
          expect(reingested).toHaveLength(N);
          expect(reingested).toEqual(await rows(clean));
          expect(await answers(runId)).toEqual(await answers(clean));
          // The cache keeps only files the catalog names: nothing of the killed write outlives it.
          const named = await db
            .selectFrom("run_column_files")
            .select(["sha256", "name", "run_id"])
            .execute();
          expect(named.filter((r) => r.run_id === runId).map((r) => r.name)).toContain(TRTLLM_REQUESTS_FILE);
          const cacheDir = path.join(dataDir, "columnar-cache");
          const cached = fs.readdirSync(cacheDir).filter((n) => n !== "tmp");
          const known = new Set(named.map((r) => `${r.sha256}.parquet`));
          expect(cached.filter((n) => !known.has(n))).toEqual([]);
        } finally {
          await cleanup();
        }
      } finally {
        await schema?.drop();
      }
    },
    CRASH_TEST_MS + 200_000,
  ); // and a re-ingest and a clean upload of N requests
});
