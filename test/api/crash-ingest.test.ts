/**
 * A server killed (SIGKILL) in the middle of an ingest: the run is never shown as complete, its
 * raw files survive, the next process marks it failed (heartbeat stopped) and re-ingest
 * completes it. The ingest runs in a child process (jiti runs the TypeScript sources).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { GET as listRuns } from "@/app/api/runs/route";
import { DELETE as deleteRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { claimForIngest, failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { ingestingRunWithRows, runBetweenSummaryAndDrilldown } from "../helpers/crash";
import {
  CHILD_WAIT_MS,
  CRASH_RECORDS,
  CRASH_TEST_MS,
  expectInterruptedRun,
  expectReingestReady,
  restartAfterCrash,
  spawnIngest,
  crashTestFolder,
  writeCrashInput,
} from "../helpers/crash-ingest";
import { runRow } from "../helpers/run-row";
import { idParams, useTestApp } from "../helpers/test-app";

const folder = crashTestFolder("runlens-crash-", (dir) => writeCrashInput(dir));

describe("crash in the middle of an ingest", () => {
  it(
    "leaves a failed run with its raw files, which re-ingest completes",
    async () => {
      // Holds the commit back once the request file is stored: the kill lands mid-ingest on any machine.
      const ingest = spawnIngest(
        folder.input,
        { DATA_DIR: folder.dataDir, DATABASE_URL: "" },
        { commitMs: 600_000 },
      );
      const runId = await ingest.until(
        ingestingRunWithRows(path.join(folder.dataDir, "runlens.sqlite"), CHILD_WAIT_MS),
      );
      expect(await ingest.kill()).toBe("SIGKILL");
      expect(ingest.output()).not.toContain("finished");

      // Right after the kill, before any restart: not complete, not listed.
      const raw = new Database(path.join(folder.dataDir, "runlens.sqlite"), { readonly: true });
      const before = raw.prepare("select status, summary from runs where id = ?").get(runId) as {
        status: string;
        summary: string | null;
      };
      raw.close();
      expect(before).toEqual({ status: "ingesting", summary: null });

      const { cleanup } = await restartAfterCrash({ DATA_DIR: folder.dataDir });
      try {
        const run = await expectInterruptedRun(runId);
        expect(run.requests).toBeNull();
        const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
        expect(list.runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
          [runId, "failed"],
        ]);

        // The raw file is intact.
        const fileId = run.files[0].id as string;
        const res = await download(new Request("http://localhost/x"), {
          params: Promise.resolve({ id: runId, fileId }),
        });
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(folder.input))).toBe(true);

        const done = await expectReingestReady(runId);
        expect(done.files[0].records).toBe(CRASH_RECORDS);
        expect(done.timeBreakdown.requestCount).toBe(CRASH_RECORDS);
      } finally {
        await cleanup();
      }
    },
    CRASH_TEST_MS,
  );
});

describe("crash between summary ready and drill-down ready", () => {
  it(
    "leaves the run failed with nothing half shown, and re-ingest completes it",
    async () => {
      const records = 2000;
      const small = writeCrashInput(path.join(folder.dir, "small"), records);
      const windowDir = path.join(folder.dir, "data-window");
      const ingest = spawnIngest(
        small,
        { DATA_DIR: windowDir, DATABASE_URL: "", RUNLENS_DRILLDOWN: "background" },
        // Holds the drill-down back, so the kill lands after the summary is committed.
        { drilldownMs: 600_000 },
      );
      const dbFile = path.join(windowDir, "runlens.sqlite");
      const runId = await ingest.until(runBetweenSummaryAndDrilldown(dbFile, CHILD_WAIT_MS));
      expect(await ingest.kill()).toBe("SIGKILL");

      // Right after the kill: the summary was stored and shown, the drill-down was not.
      const raw = new Database(dbFile, { readonly: true });
      const before = raw
        .prepare("select status, summary is not null as summary, drilldown_ready_at from runs where id = ?")
        .get(runId);
      const charts = () =>
        (raw.prepare("select count(*) as n from chart_data where run_id = ?").get(runId) as { n: number }).n;
      expect(before).toEqual({ status: "ready", summary: 1, drilldown_ready_at: null });
      expect(charts()).toBeGreaterThan(0);

      const { cleanup } = await restartAfterCrash({ DATA_DIR: windowDir });
      try {
        // After the restart: failed like any interrupted ingest, its summary and charts gone.
        await expectInterruptedRun(runId);
        expect(charts()).toBe(0);
        const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
        expect(list.runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
          [runId, "failed"],
        ]);

        const done = await expectReingestReady(runId);
        expect(done.timeBreakdown.requestCount).toBe(records);
        expect(typeof done.summaryReadyAt).toBe("string");
        expect(typeof done.drilldownReadyAt).toBe("string");
        // Its requests in its request file, none as rows.
        const rows = raw
          .prepare(
            `select (select count(*) from trtllm_requests where run_id = $id) as n,
              (select rows from run_column_files where run_id = $id and name = 'trtllm-request-rows') as file`,
          )
          .get({ id: runId });
        expect(rows).toEqual({ n: 0, file: records });
      } finally {
        raw.close();
        await cleanup();
      }
    },
    CRASH_TEST_MS,
  );
});

describe("interrupted-ingest rules", () => {
  it("fails only runs whose heartbeat is older than the threshold, and refuses a second ingest", async () => {
    const { app, cleanup } = await useTestApp();
    try {
      const db = app.store.db;
      await db
        .insertInto("runs")
        .values([
          runRow({ id: "live-run-0001", name: "live", status: "ingesting", updated_at: 10_000 }),
          runRow({ id: "dead-run-0001", name: "dead", status: "ingesting", updated_at: 8_999 }),
          runRow({ id: "done-run-0001", name: "done", status: "ready", updated_at: 0 }),
        ])
        .execute();
      expect(await failInterruptedIngests(db, 1000, 10_000)).toBe(1);
      const rows = await db.selectFrom("runs").select(["id", "status"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "dead-run-0001", status: "failed" },
        { id: "done-run-0001", status: "ready" },
        { id: "live-run-0001", status: "ingesting" },
      ]);
      expect(await claimForIngest(db, "live-run-0001")).toBe(false);
      const busy = await reingest(
        new Request("http://localhost/x", { method: "POST" }),
        idParams("live-run-0001"),
      );
      expect(busy.status).toBe(409);
      expect((await busy.json()).error.code).toBe("ingest_in_progress");
      const del = await deleteRun(
        new Request("http://localhost/x", { method: "DELETE" }),
        idParams("live-run-0001"),
      );
      expect(del.status).toBe(409);
      expect(await claimForIngest(db, "dead-run-0001")).toBe(true);
      expect(await claimForIngest(db, "dead-run-0001")).toBe(false);
    } finally {
      await cleanup();
    }
  });
});

describe("leftovers of a killed upload", () => {
  it("old temp files in the blob store are removed, fresh ones kept", async () => {
    const { FsBlobStore } = await import("@/lib/store/fs-blob-store");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-blobs-"));
    try {
      fs.mkdirSync(path.join(root, "tmp"), { recursive: true });
      const old = path.join(root, "tmp", "old.gz");
      const fresh = path.join(root, "tmp", "fresh.gz");
      fs.writeFileSync(old, "partial");
      fs.writeFileSync(fresh, "in progress");
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
      const { openSqlite } = await import("@/lib/store/db");
      const catalog = openSqlite(":memory:");
      onTestFinished(() => catalog.close());
      const store = new FsBlobStore(root, catalog.db);
      // The constructor starts a sweep; this one waits for the same outcome.
      await store.sweepTmp();
      expect(fs.existsSync(old)).toBe(false);
      expect(fs.existsSync(fresh)).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a raw file lost from the blob store", () => {
  it("download says so (404), re-ingest fails the run with a message that names no path", async () => {
    const { cleanup, dataDir } = await useTestApp();
    const errors = console.error;
    console.error = () => {};
    try {
      const { POST: upload } = await import("@/app/api/runs/route");
      const { uploadRequest } = await import("../helpers/test-app");
      const res = await upload(
        uploadRequest([{ name: "perf_metrics-0.jsonl", content: trtRecordText(1) + "\n" }]),
      );
      const { id, files } = await res.json();
      const blobs = fs
        .readdirSync(path.join(dataDir, "blobs"), { recursive: true })
        .map(String)
        .filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}(\.gz|\.raw)?$/.test(f));
      for (const b of blobs) fs.rmSync(path.join(dataDir, "blobs", b));

      const file = await download(new Request("http://localhost/x"), {
        params: Promise.resolve({ id, fileId: files[0].id }),
      });
      expect(file.status).toBe(404);
      expect((await file.json()).error.code).toBe("file_missing");

      const again = await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(id));
      expect(again.status).toBe(200);
      const run = await again.json();
      expect(run.status).toBe("failed");
      expect(run.error).toMatch(/^ingest failed: /);
      expect(run.error).not.toContain(dataDir);
      expect(run.error).not.toMatch(/\/blobs\//);
    } finally {
      console.error = errors;
      await cleanup();
    }
  });
});
