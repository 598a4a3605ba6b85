import v8 from "node:v8";
import vm from "node:vm";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { runSteps } from "@/lib/ingest/ingest-run";
import { COLUMN_CHUNK, ChunkedColumn } from "@/lib/metrics/chunked-column";
import { TimelineBuilder } from "@/lib/metrics/request-timeline";
import { AIPERF_TIMELINE_SEGMENTS, aiperfParts } from "@/lib/metrics/request-timeline-parts";

// The memory an ingest's drill-down holds (docs/performance.md §Ingest memory of an aiperf
// upload), pinned by bytes and by what stays reachable, never by time.

describe("chunked typed column", () => {
  it("keeps every value across chunks, grows only its first chunk, and holds nothing once released", () => {
    const c = new ChunkedColumn(Float64Array);
    expect(c.bytes).toBe(0);
    c.push(0.5);
    // A short column stays small.
    expect(c.bytes).toBeLessThanOrEqual(256 * 8);
    const n = 3 * COLUMN_CHUNK + 17;
    for (let i = 1; i < n; i++) c.push(i + 0.25);
    expect(c.length).toBe(n);
    expect(c.get(0)).toBe(0.5);
    for (const i of [1, COLUMN_CHUNK - 1, COLUMN_CHUNK, 2 * COLUMN_CHUNK + 5, n - 1])
      expect(c.get(i)).toBe(i + 0.25);
    // Whole chunks only: at most one chunk's slack.
    expect(c.bytes).toBe(4 * COLUMN_CHUNK * 8);
    c.release();
    expect([c.length, c.bytes]).toEqual([0, 0]);
  });

  it("stores values as its type does", () => {
    const u8 = new ChunkedColumn(Uint8Array);
    const i32 = new ChunkedColumn(Int32Array);
    u8.push(3);
    i32.push(-7);
    expect([u8.get(0), i32.get(0)]).toEqual([3, -7]);
  });
});

/** n aiperf-shaped requests of two parts each, pushed out of start order, on 4 groupings. */
function builderOf(n: number) {
  const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [
    "conversation",
    "worker",
    "file",
    "none",
  ]);
  for (let i = 0; i < n; i++) {
    // Starts in a scrambled order (i·7919 mod n), some equal, so the sort and its tie by id both work.
    const start = ((i * 7919) % n) - (i % 3 === 0 ? 1 : 0);
    b.push(
      i,
      start,
      start + 50 + (i % 11),
      { conversation: `c${i % 997}`, worker: `w${i % 4}`, file: "f", none: "" },
      aiperfParts(start, start + 50 + (i % 11), 10, true),
    );
  }
  return b;
}

describe("timeline builder memory", () => {
  it("holds about 74 bytes a request of two parts, not JS arrays, and nothing after finish", () => {
    // Past one whole chunk (COLUMN_CHUNK, 65,536 values) a column: at 70,000 requests the second
    // chunk's slack alone fails the JS-array bound below (8,585,216 bytes, not < 7,280,000).
    const n = 100_000;
    const b = builderOf(n);
    const parts = 2 * n;
    // id, start, end, parts-to, four lane numbers; each part's code, start and end: the typed
    // bytes, plus at most one chunk of slack per column (11 columns).
    const typed = n * (4 + 8 + 8 + 4 + 4 * 4) + parts * (1 + 8 + 8);
    expect(b.bytes).toBeLessThanOrEqual(typed + 11 * COLUMN_CHUNK * 8);
    // JS arrays of numbers would take at least 8 bytes for every value: 11 values a request here.
    expect(b.bytes).toBeLessThan(n * 3 * 8 + parts * 3 * 8 + n * 4 * 8);
    const t = b.finish(null, { lanesInStartOrder: true });
    expect([b.length, b.bytes]).toEqual([0, 0]);
    expect(t.n).toBe(n);
    expect(t.partOffset[n]).toBe(parts);
  });

  it("gives the rows, parts and lanes a plain sort by start, then id, gives", () => {
    const n = 5_000;
    const t = builderOf(n).finish(null, { lanesInStartOrder: true });
    const ids = Array.from({ length: n }, (_, i) => i);
    const startOf = (i: number) => ((i * 7919) % n) - (i % 3 === 0 ? 1 : 0);
    ids.sort((a, b) => startOf(a) - startOf(b) || a - b);
    expect(Array.from(t.id)).toEqual(ids);
    for (let i = 0; i < n; i += 97) {
      const id = t.id[i];
      const s = startOf(id);
      expect([t.startMs[i], t.endMs[i]]).toEqual([s, s + 50 + (id % 11)]);
      const p = t.partOffset[i];
      expect([
        t.partOffset[i + 1] - p,
        t.partSeg[p],
        t.partStartMs[p],
        t.partEndMs[p],
        t.partEndMs[p + 1],
      ]).toEqual([2, 0, s, s + 10, s + 50 + (id % 11)]);
      expect(t.lanes.conversation!.keys[t.lanes.conversation!.of[i]]).toBe(`c${id % 997}`);
    }
    // Lanes numbered by their first request in start order.
    const firsts = new Map<number, number>();
    t.lanes.worker!.of.forEach((l, i) => firsts.has(l) || firsts.set(l, i));
    expect([...firsts.keys()]).toEqual([0, 1, 2, 3]);
  });
});

describe("drill-down steps", () => {
  it("releases each step before the next runs, so what it held is garbage", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    let held: WeakRef<Float64Array> | null = null;
    let collected: boolean | null = null;
    const steps = [
      (() => {
        // A step holding a whole-run column (as the aiperf step holds its request log).
        const column = new Float64Array(1 << 20);
        held = new WeakRef(column);
        return async () => ({ first: column.length });
      })(),
      async () => {
        // WeakRefs read in a job stay alive until it ends: collect on a later turn.
        await nextTurn();
        gc();
        await nextTurn();
        gc();
        collected = held!.deref() === undefined;
        return { second: true };
      },
    ];
    expect(await runSteps(steps)).toEqual({ first: 1 << 20, second: true });
    expect(steps).toHaveLength(0);
    expect(collected).toBe(true);
  });
});
