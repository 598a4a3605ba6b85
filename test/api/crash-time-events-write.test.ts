/**
 * A server killed (SIGKILL) while DuckDB writes a TensorRT-LLM run's Parquet time-events file
 * (`trtllm-time-event-rows`, lib/store/columnar/trtllm-time-events-file.ts): after the restart the
 * run is failed with no time-events file named, the half-written temp file and the staged
 * segments are swept from the cache's temp folder, and a re-ingest writes the whole file and gives
 * the same answers as an upload of the same files that was never killed. On SQLite and PostgreSQL.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getRequestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { TRTLLM_TIME_EVENTS_FILE } from "@/lib/store/columnar/trtllm-time-events-file";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import { manyRequestsRun } from "../generators/trtllm-time-events.mjs";
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
import { idParams, uploadRun } from "../helpers/test-app";
import { storedTimeEventRows, timeEventsStoredAs } from "../helpers/trtllm-time-event-rows";
import { waitUntil } from "../helpers/wait.mjs";

/**
 * Requests with time events: enough (some 30 MB of events) that the COPY sorting them into the
 * run's file is still writing when the test sees its file.
 */
const N = 60_500;
/** The requests with perf metrics, router and gen lines: the Timeline's bars. */
const FULL = [0, 30_000, 60_499];
const EVENT_ROWS = N + 2 * FULL.length;
const idOf = (i: number) =>
  snowflakeId({ monotonicMs: 1_780_000_000_000 + (i >> 10), node: 3, counter: i & 1023 });

/**
 * Polls the cache's temp folder for the time-events file being written: a `.parquet` file while
 * the writer's staged segments are still there (they go once the write ends), and no other
 * writer's segments. Resolves with the names in the folder then.
 */
function timeEventsFileBeingWritten(tmpDir: string, timeoutMs: number): Promise<string[]> {
  return waitUntil(
    `the time-events file being written in ${tmpDir}`,
    () => {
      const names = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : [];
      const writing =
        names.some((n) => n.endsWith(".parquet")) &&
        names.some((n) => n.endsWith(".time-events-segment")) &&
        !names.some((n) => n.endsWith("-segment") && !n.endsWith(".time-events-segment"));
      return writing ? names : undefined;
    },
    { timeoutMs, intervalMs: 5 },
  );
}

const folder = crashTestFolder("runlens-crash-time-events-", (dir) => {
  const input = path.join(dir, "input");
  for (const f of manyRequestsRun(N, FULL, idOf) as Array<{ name: string; content: string }>) {
    fs.mkdirSync(path.dirname(path.join(input, f.name)), { recursive: true });
    fs.writeFileSync(path.join(input, f.name), f.content);
  }
  return input;
});

/** The upload's files under the names the child gives them (their paths below the input folder). */
function inputFiles(): Array<{ name: string; path: string }> {
  const out: Array<{ name: string; path: string }> = [];
  const walk = (d: string, prefix: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)))
      if (e.isDirectory()) walk(path.join(d, e.name), `${prefix}${e.name}/`);
      else out.push({ name: prefix + e.name, path: path.join(d, e.name) });
  };
  walk(folder.input, "");
  return out;
}

/** The run's summary-level answers and every Timeline bar's request journey. */
async function answers(id: string) {
  const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
  const res = await getTimeline(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id));
  expect(res.status).toBe(200);
  const journeys: unknown[] = [];
  for (const rid of decodeTimeline(timelineWireSchema.parse(await res.json())).bars.id) {
    const one = await getRequestJourney(
      new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}/journey`),
      { params: Promise.resolve({ id, rid: String(rid) }) },
    );
    expect(one.status).toBe(200);
    journeys.push(await one.json());
  }
  return { summary: run.summary, timeBreakdown: run.timeBreakdown, journeys };
}

describe.each(TEST_STORES)("crash while the time-events file is written (%s)", (_store, pgUrl) => {
  it(
    "leaves a failed run with no time-events file and its temp files swept; re-ingest writes the whole file",
    async () => {
      const dataDir = path.join(folder.dir, pgUrl ? "data-pg" : "data");
      const schema = pgUrl ? await freshSchema(pgUrl) : null;
      const DATABASE_URL = schema?.url ?? "";
      try {
        const tmpDir = path.join(dataDir, "columnar-cache", "tmp");
        const ingest = spawnIngest(folder.input, { DATA_DIR: dataDir, DATABASE_URL });
        const seen = await ingest.until(timeEventsFileBeingWritten(tmpDir, CHILD_WAIT_MS));
        expect(await ingest.kill()).toBe("SIGKILL");
        expect(ingest.output()).not.toContain("finished");
        // What the killed write left: the half-written file and the staged segments, aged as a
        // restart an hour later finds them.
        const left = fs.readdirSync(tmpDir);
        expect(left.some((n) => n.endsWith(".parquet"))).toBe(true);
        expect(left.some((n) => n.endsWith(".time-events-segment"))).toBe(true);
        expect(left).toEqual(expect.arrayContaining(seen.filter((n) => left.includes(n))));
        const anHourAgo = new Date(Date.now() - 2 * 60 * 60_000);
        for (const n of left) fs.utimesSync(path.join(tmpDir, n), anHourAgo, anHourAgo);

        const { app, cleanup } = await restartAfterCrash({ DATA_DIR: dataDir, DATABASE_URL });
        try {
          await waitUntil(`the killed write's temp files swept from ${tmpDir}`, () =>
            left.every((n) => !fs.existsSync(path.join(tmpDir, n))),
          );
          const ids = (await app.store.db.selectFrom("runs").select("id").execute()).map((r) => r.id);
          expect(ids).toHaveLength(1);
          const runId = ids[0];
          await expectInterruptedRun(runId);
          const named = await app.store.db
            .selectFrom("run_column_files")
            .select("name")
            .where("run_id", "=", runId)
            .execute();
          expect(named.map((r) => r.name)).not.toContain(TRTLLM_TIME_EVENTS_FILE);
          expect(await timeEventsStoredAs(app.store.db, runId)).toEqual({ rows: 0, fileRows: null });

          await expectReingestReady(runId);
          expect(await timeEventsStoredAs(app.store.db, runId)).toEqual({ rows: 0, fileRows: EVENT_ROWS });
          // The same answers as the same files uploaded by a process nobody killed.
          const clean = await uploadRun(inputFiles());
          expect(await storedTimeEventRows(app.store.db, runId)).toEqual(
            await storedTimeEventRows(app.store.db, clean),
          );
          const again = await answers(runId);
          expect(again.journeys).toHaveLength(FULL.length);
          expect(again).toEqual(await answers(clean));
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
