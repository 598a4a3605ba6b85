import { describe, expect, it } from "vitest";
import { timeTicks } from "@/components/timeline/timeline-draw";
import { decodeTimeline, encodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import {
  MAX_LANES,
  TimelineBuilder,
  overlapping,
  packRows,
  sampleStride,
  timelineWindow,
} from "@/lib/metrics/request-timeline";
import { AIPERF_TIMELINE_SEGMENTS, aiperfParts, trtllmParts } from "@/lib/metrics/request-timeline-parts";

/** Four aiperf-shaped requests, pushed out of start order as the store may hand them over. */
function fourRequests() {
  const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["file", "none"]);
  b.push(3, 150, 400, { file: "b.jsonl" }, aiperfParts(150, 400, null, true));
  b.push(1, 0, 100, { file: "a10.jsonl" }, aiperfParts(0, 100, 20, true));
  b.push(4, 10, 1000, { file: "a2.jsonl" }, aiperfParts(10, 1000, 30, true));
  b.push(2, 50, 60, { file: null }, aiperfParts(50, 60, 5, false));
  return b.finish(1_700_000_000_000);
}

describe("request timeline windows", () => {
  it("finds a long request that started before the window (the running maximum of ends)", () => {
    const t = fourRequests();
    // By start: 1 (0–100), 4 (10–1000), 2 (50–60), 3 (150–400).
    expect(Array.from(t.id)).toEqual([1, 4, 2, 3]);
    // One block of the coarse index: the largest end of all four.
    expect(Array.from(t.blockMaxEndMs)).toEqual([1000]);
    expect(overlapping(t, 500, 600).map((i) => t.id[i])).toEqual([4]);
    expect(overlapping(t, 55, 160).map((i) => t.id[i])).toEqual([1, 4, 2, 3]);
    // A request that ends exactly where the window starts is in it.
    expect(overlapping(t, 100, 120).map((i) => t.id[i])).toEqual([1, 4]);
    expect(overlapping(t, 1001, 2000)).toEqual([]);
  });

  it("packs concurrent bars into rows, each bar in the first row free at its start", () => {
    // Hand check, in start order: A 0–100 → row 0; D 10–1000 → row 1; B 50–60 → row 2 (rows 0
    // and 1 busy); C 150–400 → row 0 (free since 100).
    const { row, rowsOf } = packRows([0, 10, 50, 150], [100, 1000, 60, 400], [0, 0, 0, 0]);
    expect(row).toEqual([0, 1, 2, 0]);
    expect(rowsOf(0)).toBe(3);
    // Separate lanes pack separately.
    expect(packRows([0, 10], [100, 200], [0, 1]).row).toEqual([0, 0]);
  });

  it("samples every k-th request by start time above the limit and says so", () => {
    expect(sampleStride(25, 10)).toBe(3);
    expect(sampleStride(10, 10)).toBe(1);
    expect(sampleStride(0, 10)).toBe(1);
    const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["none"]);
    for (let i = 0; i < 25; i++) b.push(i, i * 10, i * 10 + 5, {}, aiperfParts(i * 10, i * 10 + 5, 1, true));
    const p = timelineWindow(b.finish(), { limit: 10 });
    expect(p.inWindow).toBe(25);
    expect(p.stride).toBe(3);
    // Positions 0, 3, …, 24 of the window: 9 bars.
    expect(p.bars.id).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24]);
    expect(p.sampleNote).toBe(
      "A sample: every 3rd request by start time, 9 of the 25 in this window. Zoom in to see every request.",
    );
    // Lane counts are of the window, not of the sample.
    expect(p.lanes).toEqual([{ key: "", label: "all requests", rows: 1, requests: 25 }]);
    const all = timelineWindow(b.finish(), { limit: 25 });
    expect(all.stride).toBe(1);
    expect(all.sampleNote).toBeNull();
  });

  it("names lanes in natural order, the unnamed lane last, and defaults to the most telling grouping", () => {
    const p = timelineWindow(fourRequests(), { limit: 100 });
    expect(p.laneChoices).toEqual(["file", "none"]);
    expect(p.lanesBy).toBe("file");
    expect(p.lanes.map((l) => l.label)).toEqual(["a2.jsonl", "a10.jsonl", "b.jsonl", "no file recorded"]);
    expect(p.window).toEqual({ fromMs: 0, toMs: 1000 });
    expect(p.run).toEqual({ startMs: 0, endMs: 1000, requests: 4 });
    expect(p.originEpochMs).toBe(1_700_000_000_000);
    // A grouping the run does not have falls back to the default.
    expect(timelineWindow(fourRequests(), { limit: 100, lanes: "conversation" }).lanesBy).toBe("file");
    expect(timelineWindow(fourRequests(), { limit: 100, lanes: "none" }).lanes).toHaveLength(1);
  });

  it("keeps each bar's parts with it", () => {
    const p = timelineWindow(fourRequests(), { limit: 100, fromMs: 0, toMs: 120 });
    // Window 0–120: requests 1, 4, 2 (3 starts at 150).
    expect(p.bars.id).toEqual([1, 4, 2]);
    const partsOf = (bar: number) =>
      p.parts.bar
        .map((b, k) => (b === bar ? [p.parts.seg[k], p.parts.startMs[k], p.parts.endMs[k]] : null))
        .filter((x) => x !== null);
    expect(partsOf(0)).toEqual([
      [0, 0, 20],
      [1, 20, 100],
    ]);
    expect(partsOf(1)).toEqual([
      [0, 10, 40],
      [1, 40, 1000],
    ]);
    expect(partsOf(2)).toEqual([[3, 50, 60]]);
  });

  it("sends the parts as counts per bar, gaps and lengths, and reads them back exactly", () => {
    const p = timelineWindow(fourRequests(), { limit: 100, fromMs: 0, toMs: 120 });
    const w = encodeTimeline(p);
    // Bars 1 (0–100: TTFT 0–20, decode 20–100), 4 (10–1000: 10–40, 40–1000), 2 (50–60, failed).
    expect(w.bars.parts).toEqual([2, 2, 1]);
    expect(w.parts.seg).toEqual([0, 1, 0, 1, 3]);
    expect(w.parts.gapMs).toEqual([0, 0, 0, 0, 0]);
    expect(w.parts.lengthMs).toEqual([20, 80, 30, 960, 10]);
    expect(decodeTimeline(timelineWireSchema.parse(w))).toEqual(p);
    // Hundredths of a millisecond survive the offsets both ways.
    const fine = { ...p, bars: { ...p.bars, startMs: [1234.57, 10, 50] } };
    fine.parts = {
      ...p.parts,
      startMs: [1234.57, 1254.58, 10, 40, 50],
      endMs: [1254.58, 1334.99, 40, 1000, 60],
    };
    expect(decodeTimeline(encodeTimeline(fine))).toEqual(fine);
    // Counts that do not add up to the parts are refused, not drawn on the wrong bars.
    expect(() => decodeTimeline({ ...w, bars: { ...w.bars, parts: [2, 2, 2] } })).toThrow(/disagree/);
    expect(() => encodeTimeline({ ...p, parts: { ...p.parts, bar: [1, 0, 1, 2, 2] } })).toThrow(/order/);
  });
});

describe("timeline bar parts", () => {
  it("aiperf: TTFT from the start, decode from the first token to the end", () => {
    expect(aiperfParts(100, 500, 40, true)).toEqual([0, 100, 140, 1, 140, 500]);
    // No first-token time (a non-streaming endpoint): one part, not a 0 ms TTFT.
    expect(aiperfParts(100, 500, null, true)).toEqual([2, 100, 500]);
    expect(aiperfParts(100, 105, 2, false)).toEqual([3, 100, 105]);
    // A TTFT as long as the request: no decode part of 0 ms.
    expect(aiperfParts(100, 140, 40, true)).toEqual([0, 100, 140]);
  });

  it("TensorRT-LLM: each recorded segment from its start stamp, unrecorded ones left out", () => {
    const times = {
      ctxServerArrival: 0,
      ctxArrival: 1,
      ctxFirstScheduled: 5,
      ctxFirstToken: 25,
      ctxServerFirstToken: 26,
      ctxLastToken: 100,
    };
    // Aggregated segments: ctx_preprocessing, ctx_queue, ctx_processing, ctx_postprocessing, decode.
    // decode runs from the server's first response (26) to the last token (100).
    expect(trtllmParts("aggregated", times, [1, 4, 20, 1, 74])).toEqual([
      0, 0, 1, 1, 1, 5, 2, 5, 25, 3, 25, 26, 4, 26, 100,
    ]);
    expect(trtllmParts("aggregated", times, [1, null, 20, { excludedMs: -40 }, 74])).toEqual([
      0, 0, 1, 2, 5, 25, 4, 26, 100,
    ]);
  });
});

describe("timeline axis", () => {
  it("puts round ticks in the axis' own unit", () => {
    // 47 min: a round step in minutes (10), not 500 s read as 8.333 min.
    expect(timeTicks({ from: 0, to: 2_824_130 }, 6).map((t) => t.label)).toEqual([
      "0 min",
      "10 min",
      "20 min",
      "30 min",
      "40 min",
    ]);
    expect(timeTicks({ from: 3187.7, to: 5531 }, 5).map((t) => t.label)).toEqual([
      "3.5 s",
      "4 s",
      "4.5 s",
      "5 s",
      "5.5 s",
    ]);
    expect(timeTicks({ from: 100, to: 160 }, 3)[0]).toEqual({ ms: 100, label: "100 ms" });
  });
});

describe("conversation lanes", () => {
  /** `conversations` conversations of `turns` requests each; turn k of conversation c starts at c + 100k ms. */
  function conversations(count: number, turns: number) {
    const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["conversation", "none"]);
    let id = 0;
    for (let c = count - 1; c >= 0; c--)
      for (let k = 0; k < turns; k++) {
        const s = c + 100 * k;
        b.push(id++, s, s + 50, { conversation: `conv-${c}` }, aiperfParts(s, s + 50, 10, true));
      }
    return b.finish();
  }

  it("lanes a multi-turn run by conversation when asked, in order of each conversation's first request", () => {
    // By default the requests are packed into in-flight slots (review of 3 Dec 2026, item 12):
    // 100 conversation lanes hid the concurrency.
    expect(timelineWindow(conversations(3, 2), { limit: 100 }).lanesBy).toBe("none");
    const p = timelineWindow(conversations(3, 2), { limit: 100, lanes: "conversation" });
    expect(p.laneChoices).toEqual(["conversation", "none"]);
    expect(p.lanesBy).toBe("conversation");
    expect(p.lanes.map((l) => [l.label, l.requests, l.rows])).toEqual([
      ["conv-0", 2, 1],
      ["conv-1", 2, 1],
      ["conv-2", 2, 1],
    ]);
  });

  it("folds the conversations past the lane limit into one lane, none of their requests left out", () => {
    const p = timelineWindow(conversations(250, 2), { limit: 1000, lanes: "conversation" });
    expect(p.lanes).toHaveLength(MAX_LANES);
    expect(p.lanes[MAX_LANES - 1].label).toBe(`${250 - (MAX_LANES - 1)} other conversations`);
    expect(p.lanes.reduce((n, l) => n + l.requests, 0)).toBe(500);
    expect(p.bars.id).toHaveLength(500);
  });

  it("offers no conversation lanes when every request is its own conversation (a single-turn run)", () => {
    const p = timelineWindow(conversations(10, 1), { limit: 100 });
    expect(p.laneChoices).toEqual(["none"]);
    expect(p.lanesBy).toBe("none");
  });
});

describe("lanes numbered in start order", () => {
  // 60 requests on 7 conversations and 3 workers, starts with ties, read once by start (ties by
  // id) and once in a shuffled order, as the run's request file gives them.
  const requests = Array.from({ length: 60 }, (_, i) => ({
    id: i,
    start: ((i * 37) % 23) * 10,
    end: ((i * 37) % 23) * 10 + 5 + (i % 4),
    conversation: `c${(i * 5) % 7}`,
    worker: `w${(i * 11) % 3}`,
  }));
  const build = (rows: typeof requests, lanesInStartOrder: boolean) => {
    const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["conversation", "worker", "none"]);
    for (const r of rows)
      b.push(
        r.id,
        r.start,
        r.end,
        { conversation: r.conversation, worker: r.worker, none: "" },
        aiperfParts(r.start, r.end, 2, true),
      );
    return b.finish(1000, { lanesInStartOrder });
  };
  const byStart = [...requests].sort((a, b) => a.start - b.start || a.id - b.id);
  const shuffled = requests.map((r, i) => requests[(i * 13) % 60]);

  it("gives from any order the lanes a read by start gives", () => {
    expect(new Set(shuffled.map((r) => r.id)).size).toBe(60);
    const want = build(byStart, false);
    const got = build(shuffled, true);
    expect(got).toEqual(want);
    // The plain numbering follows the order pushed: here not the one by start.
    expect(build(shuffled, false).lanes.conversation!.keys).not.toEqual(want.lanes.conversation!.keys);
  });
});
