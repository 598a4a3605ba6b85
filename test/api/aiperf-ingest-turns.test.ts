/**
 * Issue 31, health within 100 ms while a big upload is ingested: an aiperf upload's records are
 * logged and written a bounded number at a time, with a turn of the event loop between. Before,
 * each block of records the parse thread sent back (1 MiB of lines, ~1,700 records) was logged
 * and staged in one go, and blocks parsed while the one before was written followed in the same
 * turn: 30–70 ms of main-thread CPU a slice at 200,000 records with the body paced as a socket
 * gives it, 300–370 ms with a body read from memory (docs/reliability.md).
 *
 * A DuckDB appender's flush (and close) is synchronous too, its CPU growing with the rows it
 * moves: the staged request rows were flushed 4,096 at a time, the most of a 14–17 ms slice of
 * the upload's main thread at load 10 (30–70 ms at load 20–40); now 1,024.
 *
 * Counted, never timed: the request rows appended to DuckDB (the run's staged request file, and
 * any other appender) between two turns of the event loop while the upload is ingested, and the
 * rows one flush or close moves, on each store.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBAppender } from "@duckdb/node-api";
import { afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { tallyPerTurn, tallyUpload } from "../helpers/between-turns";
import { aiperfExportFiles, uploadRun } from "../helpers/test-app";
import { THREAD_AFTER_BYTES } from "@/lib/ingest/record-block-parser";

/**
 * About 6.3 MB of records: past THREAD_AFTER_BYTES (4 MiB), so the parse thread sends 1 MiB blocks
 * (~1,700 records), the size the defect wrote in one go. With the turns taken out (TURN_RECORDS
 * and TURN_BYTES unbounded) this size shows 2,085 rows in one turn on each store.
 */
const RECORDS = 10_000;

/** Counts the rows ended on any DuckDB appender, per turn of the event loop. */
function rowsPerTurn() {
  const tally = tallyPerTurn("rows");
  const endRow = DuckDBAppender.prototype.endRow;
  vi.spyOn(DuckDBAppender.prototype, "endRow").mockImplementation(function (this: DuckDBAppender) {
    tally.add("rows");
    return endRow.call(this);
  });
  return tally;
}

/** Counts the rows each appender holds unflushed; the most one flush or close moved. */
function rowsPerFlush() {
  const held = new WeakMap<DuckDBAppender, number>();
  const counter = { most: 0, flushes: 0 };
  const endRow = DuckDBAppender.prototype.endRow;
  vi.spyOn(DuckDBAppender.prototype, "endRow").mockImplementation(function (this: DuckDBAppender) {
    held.set(this, (held.get(this) ?? 0) + 1);
    return endRow.call(this);
  });
  for (const name of ["flushSync", "closeSync"] as const) {
    const moved = DuckDBAppender.prototype[name];
    vi.spyOn(DuckDBAppender.prototype, name).mockImplementation(function (this: DuckDBAppender) {
      counter.most = Math.max(counter.most, held.get(this) ?? 0);
      counter.flushes++;
      held.set(this, 0);
      return moved.call(this);
    });
  }
  return counter;
}

describe.each(TEST_STORES)("an aiperf upload's records in turns (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);
  afterEach(() => vi.restoreAllMocks());

  it("writes a bounded number of request rows between two turns of the event loop", async () => {
    const { rows: most } = await tallyUpload(
      "runlens-aiperf-turns-",
      async (dir) => {
        await generateAiperfRun(dir, { records: RECORDS, concurrency: 32, seed: 31, csv: false });
        const files = aiperfExportFiles(dir);
        expect(fs.statSync(files[0].path).size).toBeGreaterThan(THREAD_AFTER_BYTES);
        return files;
      },
      rowsPerTurn,
    );
    console.log(`aiperf upload of ${RECORDS} records: at most ${most} rows appended between two turns`);
    // 512 records a turn (TURN_RECORDS in lib/ingest/analyzers/aiperf-record-ingest.ts); before,
    // a block of ~1,700 records and the blocks parsed behind it.
    expect(most).toBeLessThanOrEqual(1024);
  }, 300_000);

  it("moves a bounded number of rows in one synchronous flush of an appender", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-aiperf-flush-"));
    try {
      await generateAiperfRun(dir, { records: RECORDS, concurrency: 32, seed: 31, csv: false });
      const counter = rowsPerFlush();
      await uploadRun(aiperfExportFiles(dir));
      vi.restoreAllMocks();
      console.log(
        `aiperf upload of ${RECORDS} records: at most ${counter.most} rows moved by one of ${counter.flushes} flushes`,
      );
      // FLUSH_ROWS (1,024) of the request stage (rows ended one by one: the timeline's data
      // chunks are not counted here); before, 4,096 request rows a flush.
      expect(counter.flushes).toBeGreaterThanOrEqual(RECORDS / 1_024);
      expect(counter.most).toBeLessThanOrEqual(1_024);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
