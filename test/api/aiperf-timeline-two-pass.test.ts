/**
 * The drill-down's request timeline of an aiperf run is placed from the run's request file in two
 * passes (lib/ingest/timeline-columns.ts, docs/performance.md §The drill-down's timeline placed in
 * two passes), pinned by bytes, never by time: beside the timeline's own columns the builder holds
 * the bars' start, id and number of parts (13 bytes a request, plus a chunk of slack a column),
 * where the builder that kept every request's values held some 74 bytes a request. The timeline
 * is the one the rows pushed into that builder give, value for value, on a generated run of
 * 70,000 requests, each its own conversation (so the conversation lanes need 32-bit numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timelineBuildOptions, timelineFromRows } from "@/lib/ingest/timeline-columns";
import { COLUMN_CHUNK } from "@/lib/metrics/chunked-column";
import { TimelineBuilder, TwoPassTimelineBuilder } from "@/lib/metrics/request-timeline";
import { atOnce } from "@/lib/metrics/steps";
import { AIPERF_TIMELINE_SEGMENTS, aiperfParts } from "@/lib/metrics/request-timeline-parts";
import { aiperfRequestId } from "@/lib/api/timeline";
import { getFiles } from "@/lib/store/runs-repo";
import { eachAiperfTimelineRow } from "@/lib/store/timeline-rows";
import type { AppContext } from "@/lib/server/app-context";
import { uploadGeneratedAiperf, useTestApp } from "../helpers/test-app";
import { prng } from "../generators/prng.mjs";
import { expectSameTimeline } from "../helpers/same-timeline";

const GROUPINGS = ["conversation", "worker", "file", "none"] as const;

describe("aiperf timeline placed in two passes from the request file", () => {
  let app: AppContext;
  let cleanup: (() => Promise<void>) | undefined;
  let id: string;
  const n = 70_000;
  beforeAll(async () => {
    ({ app, cleanup } = await useTestApp({}));
    id = await uploadGeneratedAiperf({ records: n, concurrency: 64 });
  }, 300_000);
  afterAll(async () => {
    await cleanup?.();
  });

  it("holds 13 bytes a request beside the timeline, and gives the timeline the rows give", async () => {
    const files = await getFiles(app.store.db, id);
    timelineBuildOptions.peakBytesHeld = -1;
    const t = (await timelineFromRows(app.store.db, id, files, 1_700_000_000_000))!;
    expect(t.n).toBe(n);
    expect(timelineBuildOptions.peakBytesHeld).toBeGreaterThan(0);
    // Start (8), id (4) and part count (1) a request, one chunk of slack a column; the builder
    // that held every value took some 74 bytes a request (4.9 MB here).
    expect(timelineBuildOptions.peakBytesHeld).toBeLessThanOrEqual(13 * (n + COLUMN_CHUNK));
    expect(t.lanes.conversation!.of).toBeInstanceOf(Int32Array);

    // The same rows, read once and pushed into the builder that keeps them all.
    const ordered = [...files].sort((a, b) => a.ord - b.ord);
    const b = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [...GROUPINGS]);
    await eachAiperfTimelineRow(
      app.store.db,
      id,
      ([fileId, line, ok, start, end, ttft, conversation, worker]) => {
        if (start === null || end === null) return;
        const f = ordered.findIndex((x) => x.id === fileId);
        b.push(
          aiperfRequestId(f, line),
          start,
          end,
          { conversation, worker, file: ordered[f].name, none: "" },
          aiperfParts(start, end, ttft, ok === 1),
        );
      },
    );
    expectSameTimeline(b.finish(1_700_000_000_000, { lanesInStartOrder: true }), t);
  }, 300_000);
});

describe("two-pass timeline builder", () => {
  it("gives TimelineBuilder's timeline on random requests: ties, missing bounds, failed, lanes past 256 keys", () => {
    for (const [n, keys, seed] of [
      [0, 1, 1],
      [1, 1, 2],
      [5_000, 300, 3],
      [20_000, 70_000, 4],
    ] as const) {
      const rand = prng(seed);
      const rows = Array.from({ length: n }, (_, i) => {
        const start = rand() < 0.02 ? null : Math.floor(rand() * 1000) * 1.5;
        const end = rand() < 0.02 ? null : start === null ? 5 : start + (rand() < 0.1 ? -1 : rand() * 100);
        const ttft = rand() < 0.1 ? null : rand() * 120;
        const ok = rand() < 0.95;
        return {
          id: (i * 7919) % 100_003,
          start,
          end,
          ttft,
          ok,
          conv: `c${Math.floor(rand() * keys)}`,
          w: rand() < 0.1 ? null : `w${i % 5}`,
        };
      });
      const one = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [...GROUPINGS]);
      const two = new TwoPassTimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [...GROUPINGS]);
      for (const r of rows)
        if (r.start !== null && r.end !== null) {
          one.push(
            r.id,
            r.start,
            r.end,
            { conversation: r.conv, worker: r.w, file: "f", none: "" },
            aiperfParts(r.start, r.end, r.ttft, r.ok),
          );
          two.count(r.id, r.start, r.end, aiperfParts(r.start, r.end, r.ttft, r.ok).length / 3);
        }
      atOnce(two.placeInSteps(42));
      for (const r of rows)
        if (r.start !== null && r.end !== null)
          two.place(
            r.id,
            r.start,
            r.end,
            { conversation: r.conv, worker: r.w, file: "f", none: "" },
            aiperfParts(r.start, r.end, r.ttft, r.ok),
          );
      expectSameTimeline(one.finish(42, { lanesInStartOrder: true }), atOnce(two.finishInSteps()));
      expect(two.bytes).toBe(0);
    }
  });

  it("refuses a second pass that reads other requests than the first", () => {
    const two = new TwoPassTimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, ["none"]);
    two.count(1, 10, 20, 1);
    two.count(2, 5, 20, 1);
    atOnce(two.placeInSteps(null));
    expect(() => two.place(2, 10, 20, { none: "" }, aiperfParts(10, 20, null, true))).toThrow(
      /other requests/,
    );
  });
});
