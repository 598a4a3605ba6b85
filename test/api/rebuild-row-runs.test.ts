/**
 * Runs stored as rows by an earlier Runlens are rebuilt from their stored raw files as Parquet
 * files (docs/architecture.md §Where run data lives): aiperf's `aiperf_requests` rows as its
 * request file and TensorRT-LLM's `trtllm_time_events` rows as its time-events file, by the
 * rebuild itself on both stores, by a server started on such a store, and after a kill
 * mid-rebuild.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getRequestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as listRuns } from "@/app/api/runs/route";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { rebuildRowRuns, runsStoredAsRows } from "@/lib/ingest/rebuild-row-runs";
import { getAppContext, resetAppContext } from "@/lib/server/app-context";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import { manyRequestsRun } from "../generators/trtllm-time-events.mjs";
import { aiperfRequestsStoredAs, storeRunAsRows } from "../helpers/aiperf-request-rows";
import {
  storedTimeEventRows,
  storeTimeEventsAsRows,
  timeEventsStoredAs,
} from "../helpers/trtllm-time-event-rows";
import {
  expectInterruptedRun,
  expectReingestReady,
  restartAfterCrash,
  spawnTsChild,
  CHILD_WAIT_MS,
} from "../helpers/crash-ingest";
import { pollStore } from "../helpers/crash";
import { gateIngests } from "../helpers/hold-ingests";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { fixture, idParams, openTestApp, uploadRun } from "../helpers/test-app";
import { waitUntil } from "../helpers/wait.mjs";

const C4 = ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({
  name: `c4/${f}`,
  path: path.join(fixture("aiperf-real-c4"), f),
}));

async function requestList(id: string): Promise<string> {
  const res = await listRequests(
    new Request(`http://localhost/api/runs/${id}/aiperf/requests?sort=ttft&order=desc&limit=50`),
    idParams(id),
  );
  expect(res.status).toBe(200);
  return res.text();
}

async function runBody(id: string) {
  return (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
}

/**
 * A small disaggregated TensorRT-LLM run with time events (test/generators/trtllm-time-events.mjs):
 * TRT_N requests' ctx rows, the router's and gen worker's rows of the three with perf metrics.
 */
const TRT_N = 50;
const TRT_FULL = [0, 25, 49];
const TRT_EVENT_ROWS = TRT_N + 2 * TRT_FULL.length;
const trtRun = (): Array<{ name: string; content: string }> =>
  manyRequestsRun(TRT_N, TRT_FULL, (i: number) =>
    snowflakeId({ monotonicMs: 1_780_000_000_000 + i, node: 3, counter: i & 1023 }),
  );

/** Every Timeline bar's request journey of the run, as the API answers them. */
async function journeys(id: string): Promise<string[]> {
  const res = await getTimeline(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id));
  expect(res.status).toBe(200);
  const bars = decodeTimeline(timelineWireSchema.parse(await res.json())).bars.id;
  const out: string[] = [];
  for (const rid of bars) {
    const one = await getRequestJourney(
      new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}/journey`),
      { params: Promise.resolve({ id, rid: String(rid) }) },
    );
    expect(one.status).toBe(200);
    out.push(await one.text());
  }
  return out;
}

describe.each(TEST_STORES)("rebuilding runs stored as rows on %s", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("rebuilds each such run as a request file, every answer the same as before", async () => {
    const id = await uploadRun(C4);
    const other = await uploadRun(C4.slice(1)); // a summary-only run: nothing to rebuild
    const before = await runBody(id);
    const list = await requestList(id);
    expect(await storeRunAsRows(env.app.store.db, id)).toBe(200);
    expect(await aiperfRequestsStoredAs(env.app.store.db, id)).toEqual({ rows: 200, fileRows: null });
    expect(await runsStoredAsRows(env.app.store.db)).toEqual([id]);

    const outcome = await rebuildRowRuns(env.app);
    expect(outcome).toEqual({ rebuilt: [id], failed: [], skipped: [] });
    expect(await aiperfRequestsStoredAs(env.app.store.db, id)).toEqual({ rows: 0, fileRows: 200 });
    expect(await runsStoredAsRows(env.app.store.db)).toEqual([]);
    const after = await runBody(id);
    expect(after.status).toBe("ready");
    expect(after.requests).toEqual(before.requests);
    expect(after.timeBreakdown).toEqual(before.timeBreakdown);
    expect(await requestList(id)).toBe(list);
    expect((await runBody(other)).status).toBe("ready");
    // Nothing left: a second pass finds no run.
    expect(await rebuildRowRuns(env.app)).toEqual({ rebuilt: [], failed: [], skipped: [] });
  });

  it("rebuilds a TensorRT-LLM run whose time events are rows as its time-events file, oldest run first", async () => {
    const db = env.app.store.db;
    const trt = await uploadRun(trtRun());
    const aiperf = await uploadRun(C4);
    const before = await runBody(trt);
    const beforeJourneys = await journeys(trt);
    expect(beforeJourneys).toHaveLength(TRT_FULL.length);
    const events = await storedTimeEventRows(db, trt);
    expect(events).toHaveLength(TRT_EVENT_ROWS);
    expect(await storeTimeEventsAsRows(db, trt)).toBe(TRT_EVENT_ROWS);
    expect(await storeRunAsRows(db, aiperf)).toBe(200);
    expect(await timeEventsStoredAs(db, trt)).toEqual({ rows: TRT_EVENT_ROWS, fileRows: null });
    // Still read from the rows meanwhile.
    expect(await journeys(trt)).toEqual(beforeJourneys);
    expect(await runsStoredAsRows(db)).toEqual([trt, aiperf]);

    // Held before its commit, the run being rebuilt is `ingesting` in the runs list; the other waits its turn.
    const gate = gateIngests("beforeCommit");
    const rebuilding = rebuildRowRuns(env.app);
    try {
      await gate.reached;
      const listed = await listRuns(new Request("http://localhost/api/runs"));
      expect(listed.status).toBe(200);
      const statusOf = new Map(
        ((await listed.json()) as { runs: Array<{ id: string; status: string }> }).runs.map((r) => [
          r.id,
          r.status,
        ]),
      );
      expect([statusOf.get(trt), statusOf.get(aiperf)]).toEqual(["ingesting", "ready"]);
    } finally {
      gate.release();
    }
    const outcome = await rebuilding;
    expect(outcome).toEqual({ rebuilt: [trt, aiperf], failed: [], skipped: [] });
    expect(await timeEventsStoredAs(db, trt)).toEqual({ rows: 0, fileRows: TRT_EVENT_ROWS });
    expect(await aiperfRequestsStoredAs(db, aiperf)).toEqual({ rows: 0, fileRows: 200 });
    expect(await runsStoredAsRows(db)).toEqual([]);
    const after = await runBody(trt);
    expect(after.status).toBe("ready");
    expect(after.summary).toEqual(before.summary);
    expect(after.files).toEqual(before.files);
    expect(await storedTimeEventRows(db, trt)).toEqual(events);
    expect(await journeys(trt)).toEqual(beforeJourneys);
  }, 240_000); // two uploads and two rebuilds, on a loaded machine
});

describe("a server started on a store holding runs as rows", () => {
  it("rebuilds them in the background once it has started", async () => {
    const { app, dataDir, cleanup } = await openTestApp();
    try {
      const id = await uploadRun(C4);
      const list = await requestList(id);
      await storeRunAsRows(app.store.db, id);
      // The next start-up, with the rebuild on (its default).
      await resetAppContext();
      process.env.DATA_DIR = dataDir;
      process.env.RUNLENS_REBUILD_ROW_RUNS = "on";
      const next = await getAppContext();
      const stored = await waitUntil(`run ${id} rebuilt as a request file`, async () => {
        const s = await aiperfRequestsStoredAs(next.store.db, id);
        return s.fileRows !== null && s;
      });
      expect(stored).toEqual({ rows: 0, fileRows: 200 });
      await waitUntil(`run ${id}'s drill-down`, async () => (await runBody(id)).drilldownReadyAt !== null);
      expect((await runBody(id)).status).toBe("ready");
      expect(await requestList(id)).toBe(list);
    } finally {
      await cleanup();
    }
  }, 150_000);
});

const CHILD = `
import { getAppContext } from "@/lib/server/app-context";
import { holdIngests } from "${path.resolve(__dirname, "../helpers/hold-ingests")}";
async function main() {
  // Holds the rebuild's commit back once its request file is stored: the kill lands mid-rebuild.
  holdIngests({ commitMs: 600_000 });
  await getAppContext();
  console.log("started");
  setInterval(() => {}, 1000);
}
main();
`;

/**
 * Starts a server (the child script in `dir`) on the SQLite store in `dataDir` that rebuilds the
 * runs stored as rows, kills it (SIGKILL) once run `id` is ingesting with its file stored (of that
 * `name` when given; `words` say which file), and restarts the app on the same store.
 */
async function killMidRebuild(
  dir: string,
  dataDir: string,
  id: string,
  file: { words: string; name?: string },
) {
  const child = spawnTsChild(path.join(dir, "child.ts"), [], {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    RUNLENS_REBUILD_ROW_RUNS: "on",
  });
  const dbFile = path.join(dataDir, "runlens.sqlite");
  const named = file.name === undefined ? "" : " and f.name = ?";
  await child.until(
    pollStore(dbFile, CHILD_WAIT_MS, `the rebuild storing the run's ${file.words}`, (db) =>
      db
        .prepare(
          `select r.id from runs r join run_column_files f on f.run_id = r.id
            where r.status = 'ingesting' and r.id = ?${named}`,
        )
        .get(...(file.name === undefined ? [id] : [id, file.name]))
        ? { found: true }
        : { seen: `the run not yet ingesting with a ${file.words}` },
    ),
  );
  expect(await child.kill()).toBe("SIGKILL");
  return restartAfterCrash({ DATA_DIR: dataDir });
}

describe("a kill while a run stored as rows is rebuilt", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-rebuild-crash-"));
    fs.writeFileSync(path.join(dir, "child.ts"), CHILD);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("leaves the run failed with its raw files, and a re-ingest completes it", async () => {
    const dataDir = path.join(dir, "data");
    fs.mkdirSync(dataDir);
    const first = await openTestApp({ DATA_DIR: dataDir });
    let id: string;
    let list: string;
    try {
      id = await uploadRun(C4);
      list = await requestList(id);
      await storeRunAsRows(first.app.store.db, id);
    } finally {
      await resetAppContext();
    }
    const restarted = await killMidRebuild(dir, dataDir, id, { words: "request file" });
    try {
      await expectInterruptedRun(id);
      const done = await expectReingestReady(id);
      expect(done.files.map((f: { records: number | null }) => f.records)).toContain(200);
      expect(await requestList(id)).toBe(list);
      expect(await aiperfRequestsStoredAs(restarted.app.store.db, id)).toEqual({ rows: 0, fileRows: 200 });
    } finally {
      await restarted.cleanup();
    }
  }, 300_000);

  it("leaves a TensorRT-LLM run killed mid-rebuild failed with its raw files; a re-ingest writes its time-events file", async () => {
    const dataDir = path.join(dir, "data-trt");
    fs.mkdirSync(dataDir);
    const first = await openTestApp({ DATA_DIR: dataDir });
    let id: string;
    let events: Awaited<ReturnType<typeof storedTimeEventRows>>;
    let before: string[];
    let rawFiles: unknown;
    try {
      id = await uploadRun(trtRun());
      before = await journeys(id);
      events = await storedTimeEventRows(first.app.store.db, id);
      expect(await storeTimeEventsAsRows(first.app.store.db, id)).toBe(TRT_EVENT_ROWS);
      rawFiles = (await runBody(id)).files;
    } finally {
      await resetAppContext();
    }
    const restarted = await killMidRebuild(dir, dataDir, id, {
      words: "time-events file",
      name: "trtllm-time-event-rows",
    });
    try {
      const failed = await expectInterruptedRun(id);
      // Its raw files intact: the same files, re-ingestable.
      expect(failed.files).toEqual(rawFiles);
      const done = await expectReingestReady(id);
      expect(done.status).toBe("ready");
      expect(await timeEventsStoredAs(restarted.app.store.db, id)).toEqual({
        rows: 0,
        fileRows: TRT_EVENT_ROWS,
      });
      expect(await storedTimeEventRows(restarted.app.store.db, id)).toEqual(events);
      expect(await journeys(id)).toEqual(before);
      expect(await runsStoredAsRows(restarted.app.store.db)).toEqual([]);
    } finally {
      await restarted.cleanup();
    }
  }, 300_000);
});
