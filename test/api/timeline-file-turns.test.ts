/**
 * Issue 31, "No read blocks the server": reading a run's timeline file allocates its columns
 * (zero-filled typed arrays, as long as the run's requests and parts) a bounded number of elements
 * a turn. Allocated in one piece they were most of a 17–21 ms slice of the server's CPU at
 * 200,000 requests (a CPU profile of test/bench/health-during-reads.mjs), which grows with the run.
 *
 * Counted, not timed: a header that declares the file's columns a million elements long (the
 * read then finds fewer rows, or a shorter column's padding, and fails, as for any file that does
 * not match its header), and the pauses the read awaits before DuckDB's first chunk is fetched.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { DuckDBResult } from "@duckdb/node-api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/lib/store/columnar/engine";
import { runFilePath } from "@/lib/store/columnar/run-files";
import { ALLOC_PER_TURN, readTimelineFile, TIMELINE_FILE } from "@/lib/store/columnar/timeline-file";
import { useStoreTestApp } from "../helpers/pg-schema";
import { uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

const LENGTH = 1 << 20;

describe("a timeline file's columns", () => {
  const t = useStoreTestApp(undefined);
  afterEach(() => vi.restoreAllMocks());

  it("are allocated at most ALLOC_PER_TURN elements between two pauses", async () => {
    const id = await uploadGeneratedAiperf({ records: 300, concurrency: 4, seed: 31 });
    await waitForDrilldown(id);
    const db = t.app.store.db;
    const file = await runFilePath(db, id, TIMELINE_FILE);
    expect(file).not.toBeNull();
    const names = (
      await queryRows<{ column_name: string }>(
        `select column_name from (describe select * from read_parquet('${file!.replace(/'/g, "''")}'))`,
      )
    )
      .map((r) => r.column_name)
      .filter((n) => !n.startsWith("keys:"));
    expect(names.length).toBeGreaterThanOrEqual(4);

    let pauses = 0;
    let pausesBeforeFirstChunk = -1;
    const fetch = DuckDBResult.prototype.fetchChunk;
    vi.spyOn(DuckDBResult.prototype, "fetchChunk").mockImplementation(function (this: DuckDBResult) {
      if (pausesBeforeFirstChunk === -1) pausesBeforeFirstChunk = pauses;
      return fetch.call(this);
    });
    const read = await readTimelineFile(
      db,
      id,
      {
        file: TIMELINE_FILE,
        meta: {},
        columns: names.map((name) => ({ name, type: "f64" as const, length: LENGTH })),
        keys: [],
        elided: false,
      },
      {
        pause: async () => {
          pauses++;
          await nextTurn();
        },
      },
    ).catch(() => null);
    // The file holds 300 requests, not the million each column declares.
    expect(read).toBeNull();
    expect(pausesBeforeFirstChunk).toBeGreaterThanOrEqual(0);
    const perTurn = Math.max(1, Math.floor(ALLOC_PER_TURN / LENGTH));
    console.log(
      `${names.length} columns of ${LENGTH} elements: ${pausesBeforeFirstChunk} pauses before the first chunk`,
    );
    // Before: every column allocated in one piece, no pause.
    expect(pausesBeforeFirstChunk).toBeGreaterThanOrEqual(Math.ceil(names.length / perTurn) - 1);
  }, 240_000);
});
