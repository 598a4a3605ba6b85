/**
 * The pieces behind stored verdict values (docs/metrics.md §Regressions): the blob encoding, the
 * merge of several runs' sorted values, and the fields an ingest hands to the commit. Each is
 * checked against a plain concatenate-and-sort, the reader's answer before blobs existed.
 */
import { describe, expect, it } from "vitest";
import { REQUEST_FIELDS } from "@/lib/metrics/regression/catalog";
import { logRequestValues, mergeRequestValues, ValueColumn } from "@/lib/metrics/regression/request-values";
import { mergeSortedRuns } from "@/lib/metrics/regression/sorted-pool";
import { atOnce } from "@/lib/metrics/steps";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, RequestLog } from "@/lib/metrics/requests-log";
import { decodeMetricValues, encodeMetricValues } from "@/lib/store/metric-values";
import { prng } from "../generators/prng.mjs";

const sortedCopy = (...parts: Float64Array[]) => {
  const all: number[] = [];
  for (const p of parts) all.push(...p);
  return Float64Array.from(all).sort();
};

function randomSorted(rand: () => number, n: number): Float64Array {
  // Repeated values too: latencies recorded at a coarse clock tie.
  return Float64Array.from({ length: n }, () => Math.round(rand() * 50) / 4).sort();
}

describe("metric value blobs", () => {
  it("stores 8 little-endian bytes a value and reads them back exactly", () => {
    const values = Float64Array.from([-0.5, 0, 1e-300, 60.125, 1.7976931348623157e308]);
    const bytes = encodeMetricValues(values);
    expect(bytes.byteLength).toBe(40);
    // 60.125 = 0x404E100000000000, written low byte first.
    expect([...bytes.subarray(24, 32)]).toEqual([0, 0, 0, 0, 0, 0x10, 0x4e, 0x40]);
    expect(Array.from(decodeMetricValues(bytes, 5)!)).toEqual(Array.from(values));
  });

  it("reads a blob that does not start on an 8-byte boundary, and refuses one of the wrong length", () => {
    const values = Float64Array.from([1.5, 2.25, 3]);
    const padded = new Uint8Array(25);
    padded.set(encodeMetricValues(values), 1);
    expect(Array.from(decodeMetricValues(padded.subarray(1), 3)!)).toEqual([1.5, 2.25, 3]);
    expect(decodeMetricValues(padded.subarray(1, 24), 3)).toBeNull();
    expect(decodeMetricValues(new Uint8Array(0), 0)!.length).toBe(0);
  });
});

describe("pooling sorted runs", () => {
  it("merges any number of sorted runs into what a sort of their concatenation gives", () => {
    const rand = prng(7);
    for (const sizes of [
      [],
      [0],
      [5],
      [3, 0, 4],
      [1000, 999],
      [10, 200, 3, 77, 1],
      [64, 64, 64, 64, 64, 64, 64],
    ]) {
      const parts = sizes.map((n) => randomSorted(rand, n));
      expect(Array.from(mergeSortedRuns(parts))).toEqual(Array.from(sortedCopy(...parts)));
    }
  });

  it("hands the commit every field: analyzers' values pooled and sorted, a field none measured empty", () => {
    const a = new ValueColumn();
    for (const v of [3, null, 1, Number.NaN, 2, Infinity]) a.add(v);
    expect(Array.from(a.sorted())).toEqual([1, 2, 3]);
    const merged = mergeRequestValues([
      { ttft: Float64Array.from([1, 4]), server_ttft: a.sorted() },
      undefined,
      { ttft: Float64Array.from([2, 3]) },
    ]);
    expect([...merged.keys()]).toEqual([...REQUEST_FIELDS]);
    expect(Array.from(merged.get("ttft")!)).toEqual([1, 2, 3, 4]);
    expect(Array.from(merged.get("server_ttft")!)).toEqual([1, 2, 3]);
    expect(merged.get("itl")!.length).toBe(0);
  });

  it("sorts a column in steps to the same bytes as at once", () => {
    const rand = prng(31);
    const a = new ValueColumn();
    for (let i = 0; i < 50_000; i++)
      a.add(i % 997 === 0 ? -0 : i % 13 === 0 ? 0 : Math.round(rand() * 5_000) / 8);
    const inSteps = atOnce(a.sortedInSteps());
    expect(Buffer.from(inSteps.buffer).equals(Buffer.from(a.sorted().buffer))).toBe(true);
  });

  it("leaves out a field only values in the run's request file give; pools it when another analyzer gives it too", () => {
    const file = { ttft: Float64Array.from([1, 4]), itl: Float64Array.from([5]) };
    const alone = mergeRequestValues([file, { server_ttft: Float64Array.from([7]) }], [true, false]);
    expect([...alone.keys()]).toEqual(REQUEST_FIELDS.filter((f) => f !== "ttft" && f !== "itl"));
    expect(Array.from(alone.get("server_ttft")!)).toEqual([7]);
    expect(alone.get("e2e")!.length).toBe(0);
    const pooled = mergeRequestValues([file, { ttft: Float64Array.from([2]) }], [true]);
    expect(Array.from(pooled.get("ttft")!)).toEqual([1, 2, 4]);
    expect(pooled.has("itl")).toBe(false);
  });
});

describe("an aiperf run's verdict values", () => {
  const entry = (ttftMs: number | null, itlMs: number | null = 10) => ({
    startNs: 0n,
    endNs: 1_000_000n,
    ttftMs,
    e2eMs: ttftMs === null ? null : ttftMs + 100,
    itlMs,
    inputTokens: 10,
    outputTokens: 10,
  });

  it("are the profiling requests without an error, cancelled ones included, as the row read selects", () => {
    const log = new RequestLog();
    log.add(entry(50), 0);
    log.add(entry(5), FLAG_WARMUP);
    log.add(entry(40), FLAG_CANCELLED);
    log.add(entry(999), FLAG_ERROR);
    log.add(entry(null, null), 0);
    log.add(entry(45, 12), 0);
    const v = logRequestValues(log);
    expect(Array.from(v.ttft!)).toEqual([40, 45, 50]);
    expect(Array.from(v.e2e!)).toEqual([140, 145, 150]);
    expect(Array.from(v.itl!)).toEqual([10, 10, 12]);
    // A log that grows after a sort is sorted again.
    log.add(entry(1), 0);
    expect(Array.from(logRequestValues(log).ttft!)).toEqual([1, 40, 45, 50]);
  });
});
