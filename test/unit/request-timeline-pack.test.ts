/**
 * The request timeline as stored columns (docs/metrics.md §Request timeline): packed, written as
 * one blob, read back and unpacked, it is the timeline it was, and its coarse window index finds
 * exactly the requests a brute-force scan finds, at block edges and the run's ends too.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  overlapping,
  runEndMs,
  TIMELINE_BLOCK,
  TimelineBuilder,
  timelineWindow,
  type RequestTimeline,
} from "@/lib/metrics/request-timeline";
import { packTimeline, unpackTimeline } from "@/lib/metrics/request-timeline-pack";
import { AIPERF_TIMELINE_SEGMENTS, aiperfParts } from "@/lib/metrics/request-timeline-parts";
import { migrate, openSqlite } from "@/lib/store/db";
import {
  decodeStoredColumns,
  encodeStoredColumns,
  readTimelineColumns,
  writeTimelineColumns,
} from "@/lib/store/timeline-columns";
import { ELISION_STEP, timelineFileOptions, writeTimelineFile } from "@/lib/store/columnar/timeline-file";
import { queryArrays, quote } from "@/lib/store/columnar/engine";
import { runFilePath } from "@/lib/store/columnar/run-files";
import { timelineFileColumns } from "@/lib/store/timeline-columns";
import { trtllmParts, trtllmTimelineSegments } from "@/lib/metrics/request-timeline-parts";
import { prng } from "../generators/prng.mjs";
import { tallyPerTurn } from "../helpers/between-turns";
import { expectSameTimeline } from "../helpers/same-timeline";

/**
 * `n` aiperf-shaped requests in shuffled order: mostly short, every 500th one long (it runs over
 * many blocks), some failed, 300 conversations (past 256 keys, so that lane column is 16-bit).
 */
function generated(n: number, seed = 3): RequestTimeline {
  const rand = prng(seed);
  const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["conversation", "worker", "none"]);
  const order = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
  for (const i of order) {
    const start = i * 10 + Math.floor(rand() * 5);
    const end = start + (i % 500 === 0 ? 40_000 : 5 + Math.floor(rand() * 40));
    const ok = i % 97 !== 0;
    b.push(
      i,
      start,
      end,
      { conversation: `c${i % 300}`, worker: `w${i % 3}`, none: "" },
      aiperfParts(start, end, i % 13 === 0 ? null : 2, ok),
    );
  }
  return b.finish(1_700_000_000_000);
}

const stored = (t: RequestTimeline) => decodeStoredColumns(encodeStoredColumns(packTimeline(t)))!;

/** The overlap rule applied to every request, no index. */
function bruteForce(t: RequestTimeline, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.n; i++) if (t.startMs[i] <= to && t.endMs[i] >= from) out.push(i);
  return out;
}

describe("stored timeline columns", () => {
  it("round-trips every column, lane and name through the blob", () => {
    const t = generated(3 * TIMELINE_BLOCK + 17);
    expect(t.lanes.conversation!.of).toBeInstanceOf(Uint16Array);
    expect(t.lanes.worker!.of).toBeInstanceOf(Uint8Array);
    expect(t.blockMaxEndMs).toHaveLength(4);
    const back = unpackTimeline(stored(t))!;
    expectSameTimeline(t, back);
    // And so does every window the route answers.
    for (const q of [
      { limit: 5000 },
      { limit: 100, lanes: "conversation" as const },
      { fromMs: 5000, toMs: 9000, limit: 5000, lanes: "worker" as const },
    ])
      expect(timelineWindow(back, q)).toEqual(timelineWindow(t, q));
  });

  it("reads a blob that does not start on an 8-byte boundary", () => {
    const t = generated(50);
    const bytes = encodeStoredColumns(packTimeline(t));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expectSameTimeline(t, unpackTimeline(decodeStoredColumns(shifted.subarray(3))!)!);
  });

  it("finds a window's requests as a scan of every request does, at block edges and the run's ends", () => {
    const t = generated(4 * TIMELINE_BLOCK);
    const at = (i: number) => t.startMs[i];
    const windows: Array<[number, number]> = [
      [at(0), runEndMs(t)],
      [-1000, -1],
      [runEndMs(t) + 1, runEndMs(t) + 2],
      [runEndMs(t), runEndMs(t)],
      [at(0), at(0)],
      // A window that opens exactly on the first request of a block, or just before it.
      [at(TIMELINE_BLOCK), at(TIMELINE_BLOCK) + 3],
      [at(TIMELINE_BLOCK) - 0.5, at(TIMELINE_BLOCK)],
      [at(2 * TIMELINE_BLOCK - 1), at(2 * TIMELINE_BLOCK)],
      [at(3 * TIMELINE_BLOCK), at(4 * TIMELINE_BLOCK - 1)],
      // Opening where a request ends: it is in the window.
      [t.endMs[TIMELINE_BLOCK + 5], t.endMs[TIMELINE_BLOCK + 5] + 1],
      // Late in the run, where the long requests of early blocks still run.
      [30_000, 30_010],
    ];
    const back = unpackTimeline(stored(t))!;
    for (const [from, to] of windows) {
      const want = bruteForce(t, from, to);
      expect(overlapping(t, from, to)).toEqual(want);
      expect(overlapping(back, from, to)).toEqual(want);
      expect(timelineWindow(back, { fromMs: from, toMs: to, limit: 20_000 }).inWindow).toBe(want.length);
    }
    // The long request that started in the first block is in a window 3 blocks later.
    expect(overlapping(t, at(3 * TIMELINE_BLOCK), at(3 * TIMELINE_BLOCK)).map((i) => t.id[i])).toContain(0);
  });

  it("keeps an empty timeline empty", () => {
    const t = new TimelineBuilder("trtllm", [], ["none"]).finish(null);
    const back = unpackTimeline(stored(t))!;
    expect(back.n).toBe(0);
    expect(runEndMs(back)).toBe(0);
    expect(overlapping(back, 0, 100)).toEqual([]);
  });

  it("refuses what is not a timeline of this version, so the run is read from its rows", () => {
    const t = generated(40);
    const packed = packTimeline(t);
    expect(unpackTimeline({ ...packed, meta: { ...packed.meta, version: 99 } })).toBeNull();
    expect(
      unpackTimeline({ ...packed, columns: { ...packed.columns, endMs: t.endMs.subarray(0, 39) } }),
    ).toBeNull();
    // A lane number past its keys names no lane.
    const lanes = packed.meta.lanes.map((l) => (l.by === "worker" ? { ...l, keys: ["w0"] } : l));
    expect(unpackTimeline({ ...packed, meta: { ...packed.meta, lanes } })).toBeNull();
    const bytes = encodeStoredColumns(packed);
    expect(decodeStoredColumns(bytes.subarray(0, bytes.length - 8))).toBeNull();
    expect(decodeStoredColumns(new Uint8Array(2))).toBeNull();
  });

  it("reads a header's long lists of names a slice at a time as one JSON.parse reads them", () => {
    // Names with what a slice boundary must not split on: quotes, commas, backslashes, brackets.
    const awkward = ['a","b', "c\\", '\\"', "[x]", "", "é ✓ 𝄞", ",", '"'];
    const names = Array.from({ length: 50_123 }, (_, i) => `${awkward[i % awkward.length]}${i}`);
    const meta = {
      lanes: [
        { by: "conversation", keys: names },
        { by: "worker", keys: ["w0", "w1"] },
        { by: "mixed", keys: [...names.slice(0, 30_000), 1] },
      ],
      short: names.slice(0, 5),
      nested: { deeper: [names.slice(0, 20_000)] },
    };
    const bytes = encodeStoredColumns({ meta, columns: { id: new Int32Array([1, 2, 3]) } });
    const decoded = decodeStoredColumns(bytes)!;
    expect(decoded.meta).toEqual(JSON.parse(JSON.stringify(meta)));
    expect(Array.from(decoded.columns.id)).toEqual([1, 2, 3]);
  });

  it("rebuilds the window index of columns stored with another block size", () => {
    const t = generated(3 * TIMELINE_BLOCK);
    const packed = packTimeline(t);
    const other = { ...packed, meta: { ...packed.meta, block: 7 } };
    expect(Array.from(unpackTimeline(other)!.blockMaxEndMs)).toEqual(Array.from(t.blockMaxEndMs));
  });
});

describe("storing timeline columns", () => {
  it("writes one blob a run, replaces it, and stores none past the size limit", async () => {
    const handle = openSqlite(":memory:");
    try {
      await migrate(handle);
      const t = generated(2 * TIMELINE_BLOCK);
      const packed = packTimeline(t);
      expect(await writeTimelineColumns(handle.db, "r1", t.n, packed)).toBe(true);
      expectSameTimeline(t, unpackTimeline((await readTimelineColumns(handle.db, "r1"))!)!);
      const small = generated(10);
      expect(await writeTimelineColumns(handle.db, "r1", small.n, packTimeline(small))).toBe(true);
      expect(unpackTimeline((await readTimelineColumns(handle.db, "r1"))!)!.n).toBe(10);
      // Past the limit the old columns go too: the run is read from its rows.
      expect(await writeTimelineColumns(handle.db, "r1", t.n, packed, 1000)).toBe(false);
      expect(await readTimelineColumns(handle.db, "r1")).toBeNull();
    } finally {
      await handle.close();
    }
  });
});

describe("timeline columns in the run's Parquet file", () => {
  afterEach(() => vi.restoreAllMocks());

  it("compares a bounded number of part bounds between two turns of the event loop (issue 31)", async () => {
    const handle = openSqlite(":memory:");
    try {
      await migrate(handle);
      const n = 4 * ELISION_STEP;
      const t = generated(n);
      const packed = packTimeline(t);
      // Which bounds are stored as nulls is found by comparing each part's bounds (Object.is) with
      // its request's and the part's before; counted per turn while the file is written.
      const tally = tallyPerTurn("compared");
      const is = Object.is;
      vi.spyOn(Object, "is").mockImplementation((a: unknown, b: unknown) => {
        tally.add("compared");
        return is(a, b);
      });
      const header = await writeTimelineFile(handle.db, "r1", packed);
      const { compared } = tally.stop();
      vi.restoreAllMocks();
      console.log(
        `a timeline of ${n} requests written: at most ${compared} bounds compared between two turns`,
      );
      // ELISION_STEP requests a turn, at most two parts each (aiperf's), two comparisons a part;
      // before, every part of the run in one turn (190,942 comparisons here).
      expect(packed.columns.partStartMs.length).toBeGreaterThan(n);
      expect(compared).toBeLessThanOrEqual(4 * ELISION_STEP);
      expect(await writeTimelineColumns(handle.db, "r1", t.n, timelineFileColumns(header))).toBe(true);
      expectSameTimeline(t, unpackTimeline((await readTimelineColumns(handle.db, "r1"))!)!);
    } finally {
      await handle.close();
    }
  });

  it("reads back every column, lane and name, part bounds stored as nulls put back bit for bit", async () => {
    const handle = openSqlite(":memory:");
    try {
      await migrate(handle);
      // aiperf-shaped: more than a DuckDB chunk of rows, 300 conversation keys, failed and whole bars.
      const t = generated(3 * TIMELINE_BLOCK + 5);
      // Parts that do not meet their request's bounds, a gap between parts, a zero of either sign,
      // a missing part time (NaN), and a request with no part at all: each kept as it was.
      const odd = new TimelineBuilder("trtllm", trtllmTimelineSegments("disaggregated"), ["worker", "none"]);
      odd.push(1, 0, 10, { worker: "a" }, [0, -0, 4, 1, 5, 10]);
      odd.push(2, -0, 12, { worker: "b" }, [0, 0, 3, 1, 3, NaN]);
      odd.push(3, 5, 9, { worker: "a" }, []);
      odd.push(4, 6, 20, { worker: "c" }, [0, 7, 8, 1, 8, 19, 2, 19, 20]);
      odd.push(5, 7, 30, { worker: "a" }, trtllmParts("disaggregated", {}, []));
      for (const one of [t, odd.finish(null), generated(0)]) {
        const header = await writeTimelineFile(handle.db, "r1", packTimeline(one));
        expect(await writeTimelineColumns(handle.db, "r1", one.n, timelineFileColumns(header))).toBe(true);
        const back = unpackTimeline((await readTimelineColumns(handle.db, "r1"))!)!;
        expectSameTimeline(one, back);
        for (const k of ["startMs", "partStartMs", "partEndMs"] as const)
          expect(Array.from(back[k]).map((v) => Object.is(v, -0))).toEqual(
            Array.from(one[k]).map((v) => Object.is(v, -0)),
          );
      }
      // The header alone is in the catalog, without the file the run has no columns.
      await handle.db.deleteFrom("run_column_files").where("run_id", "=", "r1").execute();
      expect(await readTimelineColumns(handle.db, "r1")).toBeNull();
    } finally {
      await handle.close();
    }
  });

  it("holds at most spillRows rows in DuckDB and writes the file from its segments, rows in order", async () => {
    const handle = openSqlite(":memory:");
    const spillRows = timelineFileOptions.spillRows;
    try {
      await migrate(handle);
      timelineFileOptions.spillRows = 2048;
      timelineFileOptions.peakRowsHeld = -1;
      // 10,000 requests: some 20,000 part rows, ten segments of one DuckDB chunk each.
      const t = generated(10_000);
      const packed = packTimeline(t);
      const header = await writeTimelineFile(handle.db, "r1", packed);
      expect(timelineFileOptions.peakRowsHeld).toBeGreaterThan(0);
      expect(timelineFileOptions.peakRowsHeld).toBeLessThanOrEqual(2048);
      const rows = Math.max(...header.columns.map((c) => c.length), ...header.keys.map((k) => k.count));
      expect(rows).toBeGreaterThan(5 * 2048);
      // Each column of its own type, in the header's order, the key columns text.
      const file = quote((await runFilePath(handle.db, "r1", header.file))!);
      const schema = await queryArrays(
        `select column_name, column_type from (describe select * from read_parquet(${file}))`,
      );
      const duck = { f64: "DOUBLE", i32: "INTEGER", u16: "USMALLINT", u8: "UTINYINT" };
      expect(schema).toEqual([
        ...header.columns.map((c) => [c.name, duck[c.type]]),
        ...header.keys.map((k) => [`keys:${k.by}`, "VARCHAR"]),
      ]);
      // Every column but the part bounds (stored with nulls) as it was written, in the file's
      // row order, nulls past its length; the bounds through the read below.
      for (const c of header.columns) {
        if (c.name === "partStartMs" || c.name === "partEndMs") continue;
        const values = (
          await queryArrays(
            `select "${c.name}" from read_parquet(${file}, file_row_number = true) order by file_row_number`,
          )
        ).map((r) => (r[0] === null ? null : Number(r[0])));
        expect(values).toEqual([...Array.from(packed.columns[c.name]), ...Array(rows - c.length).fill(null)]);
      }
      expect(await writeTimelineColumns(handle.db, "r1", t.n, timelineFileColumns(header))).toBe(true);
      expectSameTimeline(t, unpackTimeline((await readTimelineColumns(handle.db, "r1"))!)!);
    } finally {
      timelineFileOptions.spillRows = spillRows;
      await handle.close();
    }
  });
});
