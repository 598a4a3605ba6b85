/**
 * Issue 31, "No read blocks the server" (health within 100 ms throughout, an ingest included): an
 * aiperf upload's summary is computed in turns of the event loop. Before, the analyzer's finish
 * computed the requests block and every chart payload in one synchronous call: at 200,000
 * records 554 ms of main-thread CPU in one slice, the longest of the whole upload
 * (docs/reliability.md). Now the latency columns are sorted in steps (`sortedMeasuredInSteps`) and
 * a turn comes between the summary's parts (`aiperfRunResultInSteps`).
 *
 * Counted, never timed: the values sorted natively (typed-array sorts) between two turns of the
 * event loop while the upload is ingested, on each store. Before, the requests block's five sorts
 * (TTFT, end-to-end latency, inter-token latency, input and output tokens) came in one turn.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { tallyPerTurn, tallyUpload } from "../helpers/between-turns";
import { aiperfExportFiles } from "../helpers/test-app";

const RECORDS = 20_000;

/** Counts the values of Float64Array sorts, per turn of the event loop. */
function sortedPerTurn() {
  const tally = tallyPerTurn("values");
  const typed = Object.getPrototypeOf(Float64Array.prototype) as { sort(this: ArrayLike<number>): unknown };
  const sort = typed.sort;
  vi.spyOn(typed, "sort").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
    if (this instanceof Float64Array) tally.add("values", this.length);
    return (sort as (...x: unknown[]) => unknown).apply(this, a);
  });
  return tally;
}

describe.each(TEST_STORES)("an aiperf upload's summary in turns (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);
  afterEach(() => vi.restoreAllMocks());

  it("sorts at most 16,384 values between two turns of the event loop", async () => {
    // The upload only: the generator sorts the summary's columns itself.
    const { values: most } = await tallyUpload(
      "runlens-finish-turns-",
      async (dir) => {
        await generateAiperfRun(dir, { records: RECORDS, concurrency: 32, seed: 23, csv: false });
        return aiperfExportFiles(dir);
      },
      sortedPerTurn,
    );
    console.log(`aiperf upload of ${RECORDS} records: at most ${most} values sorted between two turns`);
    // Sorts in steps of at most 16,384 values (`sortInSteps`, lib/metrics/stats.ts), the timeline's
    // starts and ends included; before, the latency columns were sorted in one turn, and then the
    // timeline's starts and ends (2 × RECORDS values) in one piece.
    expect(most).toBeLessThanOrEqual(16_384);
  }, 300_000);
});
