/**
 * Which parts a frame of the timeline canvas draws (components/timeline/timeline-draw.ts,
 * docs/metrics.md §Request timeline, "Drawing"): every part at least a pixel wide; of one bar's
 * parts narrower than a pixel in the same column, the longest; nothing outside the plot. Hand
 * cases on a plot of 1,000 px for 1,000 ms (one ms a pixel).
 */
import { describe, expect, it } from "vitest";
import { drawnParts } from "@/components/timeline/timeline-draw";
import { GUTTER, layoutTimeline, RIGHT } from "@/components/timeline/timeline-layout";
import type { TimelinePayload } from "@/lib/api/timeline";

/** Bars with their parts as [segment, start, end] (ms), one lane, one row each. */
function payload(bars: Array<Array<[number, number, number]>>): TimelinePayload {
  const parts: TimelinePayload["parts"] = { bar: [], seg: [], startMs: [], endMs: [] };
  bars.forEach((ps, b) =>
    ps.forEach(([seg, s, e]) => {
      parts.bar.push(b);
      parts.seg.push(seg);
      parts.startMs.push(s);
      parts.endMs.push(e);
    }),
  );
  return {
    source: "trtllm",
    run: { startMs: 0, endMs: 1000, requests: bars.length },
    window: { fromMs: 0, toMs: 1000 },
    lanesBy: "none",
    laneChoices: ["none"],
    lanes: [{ key: "", label: "all requests", rows: bars.length, requests: bars.length }],
    inWindow: bars.length,
    stride: 1,
    sampleNote: null,
    segments: ["a", "b", "c"].map((name) => ({ name, label: name, colour: "#000" })),
    bars: {
      id: bars.map((_, b) => b),
      lane: bars.map(() => 0),
      row: bars.map((_, b) => b),
      startMs: bars.map((ps) => ps[0][1]),
      endMs: bars.map((ps) => ps[ps.length - 1][2]),
    },
    parts,
    originEpochMs: null,
  };
}

const WIDTH = GUTTER + 1000 + RIGHT;
const WHOLE = { from: 0, to: 1000 };

function drawn(p: TimelinePayload, v = WHOLE) {
  const l = layoutTimeline(p, WIDTH);
  const { bySeg, count } = drawnParts(p, l, v, GUTTER - 2, WIDTH - RIGHT + 2);
  const parts = bySeg.flatMap((ks) => [...ks]).sort((a, b) => a - b);
  expect(parts).toHaveLength(count);
  return parts;
}

describe("the parts a timeline frame draws", () => {
  it("draws every part at least a pixel wide", () => {
    // Bar 0: 10–12, 12–15, 15–300 (2, 3 and 285 px).
    expect(
      drawn(
        payload([
          [
            [0, 10, 12],
            [1, 12, 15],
            [2, 15, 300],
          ],
        ]),
      ),
    ).toEqual([0, 1, 2]);
  });

  it("draws the longest of one bar's sub-pixel parts in a pixel column, and each column's", () => {
    // Bar 0 at 1 ms a pixel: 100.0–100.1 (0.1 px), 100.1–100.7 (0.6 px), 100.7–100.9 all in the
    // column from 100 ms; then 101.2–101.5 in the next column; then 101.5–400 (wide).
    const p = payload([
      [
        [0, 100, 100.1],
        [1, 100.1, 100.7],
        [0, 100.7, 100.9],
        [1, 101.2, 101.5],
        [2, 101.5, 400],
      ],
    ]);
    expect(drawn(p)).toEqual([1, 3, 4]);
    // Zoomed in to 10 px a ms, every part is wider than a pixel and drawn.
    expect(drawn(p, { from: 50, to: 150 })).toEqual([0, 1, 2, 3, 4]);
  });

  it("never folds parts of different bars, and leaves out parts outside the plot", () => {
    // Bars 0 and 1 have sub-pixel parts in the same column; bar 2 lies before the window.
    const p = payload([
      [[0, 500.1, 500.3]],
      [[1, 500.4, 500.9]],
      [
        [2, 0, 10],
        [0, 10, 20],
      ],
    ]);
    expect(drawn(p, { from: 100, to: 1100 })).toEqual([0, 1]);
  });
});

describe("the lane labels' room on a phone", () => {
  it("a 330 px canvas gives the labels about a quarter of its width, not 160 px", () => {
    const p = payload([[[0, 10, 20]]]);
    p.lanes = [
      { key: "w", label: "perf_metrics-server-gen-worker-2-20260101T000000Z", rows: 1, requests: 1 },
    ];
    const phone = layoutTimeline(p, 330);
    expect(phone.gutter / 330).toBeLessThan(0.3);
    expect(phone.laneNames[0].length).toBeLessThanOrEqual(11);
    // On a laptop the gutter and the labels stay as they were.
    const wide = layoutTimeline(p, WIDTH);
    expect(wide.gutter).toBe(GUTTER);
    expect(wide.laneNames[0]).toBe("server-gen-worker-2");
  });
});
