/**
 * Issue 31, "No read blocks the server": an aiperf upload's request stage flushes DuckDB's
 * appender every 4,096 rows, a synchronous INSERT DuckDB plans and commits (the rows copied
 * twice, each column's statistics updated). It ran inside the append of the row that filled it,
 * in the same turn of the event loop as the records written before it (up to 512 a turn), and
 * those turns were two or three times as long as the flush. Now the flush is alone between two
 * turns. Counted, never timed: the rows appended in the turn of each flush, before it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { DuckDBAppender } from "@duckdb/node-api";
import { AiperfRequestStage } from "@/lib/store/columnar/aiperf-request-file";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { tallyUpload, type TurnTally } from "../helpers/between-turns";
import { useStoreTestApp } from "../helpers/pg-schema";
import { aiperfExportFiles } from "../helpers/test-app";

/**
 * Rows appended to an aiperf stage since the event loop last took a turn, read at each flush of
 * a stage's appender. The count goes back to 0 in an immediate queued by the first row after a
 * turn, which runs before anything that row's turn queues after it (a flush's own wait).
 */
function rowsInFlushTurns(): TurnTally<"rows" | "flushes"> {
  let rows = 0;
  let resetQueued = false;
  let most = 0;
  let flushes = 0;
  const stageAppenders = new WeakSet<object>();
  const push = AiperfRequestStage.prototype.push;
  vi.spyOn(AiperfRequestStage.prototype, "push").mockImplementation(function (this: AiperfRequestStage, row) {
    if (!resetQueued) {
      resetQueued = true;
      setImmediate(() => {
        resetQueued = false;
        rows = 0;
      });
    }
    rows++;
    const appender = (this as unknown as { appender: object | null }).appender;
    if (appender) stageAppenders.add(appender);
    return push.call(this, row);
  });
  const flushSync = DuckDBAppender.prototype.flushSync;
  vi.spyOn(DuckDBAppender.prototype, "flushSync").mockImplementation(function (this: DuckDBAppender) {
    if (stageAppenders.has(this)) {
      flushes++;
      most = Math.max(most, rows);
    }
    return flushSync.call(this);
  });
  return {
    add() {},
    stop: () => ({ rows: most, flushes }),
  };
}

describe("an aiperf upload's appender flushes", () => {
  useStoreTestApp(undefined);
  afterEach(() => vi.restoreAllMocks());

  it("run between two turns, with no record's row appended in their turn", async () => {
    const { rows, flushes } = await tallyUpload(
      "runlens-flush-turn-",
      async (dir) => {
        await generateAiperfRun(dir, { records: 12_000, concurrency: 32, seed: 43, csv: false });
        return aiperfExportFiles(dir);
      },
      rowsInFlushTurns,
    );
    console.log(
      `aiperf upload of 12,000 records: ${flushes} flushes, at most ${rows} rows appended in a flush's turn`,
    );
    // 12,000 rows: a flush at 4,096 and 8,192 (the last rows go with the appender's close).
    expect(flushes).toBe(2);
    expect(rows).toBe(0);
  }, 300_000);
});
