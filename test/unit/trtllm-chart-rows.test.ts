import { describe, expect, it } from "vitest";
import {
  NOT_RECORDED_KEY,
  requestBarRows,
  segmentColour,
  segmentShareRows,
  segmentStatRows,
  waterfallRows,
} from "@/lib/metrics/trtllm-chart-rows";
import type { RequestDetail, SegmentsPayload } from "@/lib/api/trtllm-charts";
import { figureProps } from "@/components/charts/figure-props";
import { segmentStatsFigure } from "@/lib/metrics/figures/segments";

const payload: SegmentsPayload = {
  mode: "aggregated",
  requestCount: 3,
  segments: [
    {
      name: "ctx_queue",
      label: "q",
      count: 3,
      notRecorded: 0,
      excluded: 0,
      clamped: 0,
      meanMs: 2,
      p50Ms: 1,
      p75Ms: 3,
      p90Ms: 5,
      p99Ms: 9,
    },
    {
      name: "decode",
      label: "d",
      count: 0,
      notRecorded: 3,
      excluded: 0,
      clamped: 0,
      meanMs: null,
      p50Ms: null,
      p75Ms: null,
      p90Ms: null,
      p99Ms: null,
    },
  ],
};

describe("breakdown chart rows", () => {
  it("maps segment names to their colour variables", () => {
    expect(segmentColour("gen_kv_transfer")).toBe("var(--seg-gen-kv-transfer)");
  });

  it("picks the chosen statistic and keeps not-recorded as null, absent from the stacked row", () => {
    const rows = segmentStatRows(payload, "p90");
    expect(rows.map((r) => r.valueMs)).toEqual([5, null]);
    // The stacked bar: decode is no band (named not recorded), never 0 ms; its total is the band's.
    expect(figureProps(segmentStatsFigure(payload, ["p90"], "all")).data[0]).toEqual({
      x: "p90",
      ctx_queue: 5,
      notRecorded: ["decode"],
      stackTotal: 5,
    });
  });

  it("lists a request's unrecorded and excluded segments instead of drawing 0", () => {
    const rows = requestBarRows({
      mode: "aggregated",
      total: 1,
      segmentNames: ["a", "b", "c"],
      requests: [
        {
          idx: 4,
          requestId: null,
          disaggRequestId: null,
          arrivalMs: 0,
          ttftMs: 1,
          e2eMs: 2,
          segments: [0, null, { excludedMs: -9 }],
        },
      ],
    });
    expect(rows[0]).toEqual({
      idx: 4,
      label: "request 5 (no id recorded)",
      a: 0,
      [NOT_RECORDED_KEY]: ["b", "c"],
    });
  });

  it("does not count gen_queue as missing where the KV-transfer spans tile it, nor the reverse", () => {
    const segmentNames = ["gen_queue", "gen_queue_wait", "gen_kv_transfer", "gen_post_transfer"];
    const request = (idx: number, segments: (number | null)[]) => ({
      idx,
      requestId: null,
      disaggRequestId: null,
      arrivalMs: 0,
      ttftMs: 1,
      e2eMs: 2,
      segments,
    });
    const rows = requestBarRows({
      mode: "disaggregated",
      total: 3,
      segmentNames,
      requests: [
        request(0, [null, 1, 2, 3]),
        request(1, [6, null, null, null]),
        request(2, [null, null, null, null]),
      ],
    });
    expect(rows.map((r) => r[NOT_RECORDED_KEY])).toEqual([[], [], segmentNames]);

    const stats = (name: string, count: number) => ({
      name,
      label: name,
      count,
      notRecorded: 2 - count,
      excluded: 0,
      clamped: 0,
      meanMs: count ? 1 : null,
      p50Ms: count ? 1 : null,
      p75Ms: count ? 1 : null,
      p90Ms: count ? 1 : null,
      p99Ms: count ? 1 : null,
    });
    // Every request has transfer stamps: gen_queue is no row; a transfer span nobody recorded still is.
    const allTransfers = segmentStatRows(
      {
        mode: "disaggregated",
        requestCount: 2,
        segments: [stats("gen_queue", 0), stats("gen_kv_transfer", 2), stats("ctx_queue", 0)],
      },
      "p50",
    );
    expect(allTransfers.map((r) => r.name)).toEqual(["gen_kv_transfer", "ctx_queue"]);
    // Nobody recorded either way: both rows stay, not recorded.
    const neither = segmentStatRows(
      {
        mode: "disaggregated",
        requestCount: 2,
        segments: [stats("gen_queue", 0), stats("gen_kv_transfer", 0)],
      },
      "p50",
    );
    expect(neither.map((r) => r.name)).toEqual(["gen_queue", "gen_kv_transfer"]);
  });

  it("turns bucket means into shares of their recorded sum", () => {
    const rows = segmentShareRows({
      segmentNames: ["a", "b"],
      bucketMs: 1000,
      buckets: [
        { startMs: 0, requests: 2, meanMs: [1, 3] },
        { startMs: 1000, requests: 0, meanMs: [null, null] },
        { startMs: 2000, requests: 1, meanMs: [2, null] },
      ],
    });
    expect(rows).toEqual([
      { startS: 0, requests: 2, a: 0.25, b: 0.75 },
      { startS: 2, requests: 1, a: 1 },
    ]);
  });

  // An aggregated request stamped arrival 0, first scheduled 2 ms, first token 10 ms, server first
  // token 11 ms, last token 110 ms: queue 2 + prefill 8 + postprocessing 1 = 11 ms = its TTFT, and
  // decode (first → last token) 100 ms overlaps the postprocessing span.
  it("TTFT scope leaves decode out of the bars, and the TTFT segments then sum to TTFT", () => {
    const rows = requestBarRows(
      {
        mode: "aggregated",
        total: 1,
        segmentNames: ["ctx_queue", "ctx_processing", "ctx_postprocessing", "decode"],
        requests: [
          {
            idx: 0,
            requestId: "r0",
            disaggRequestId: null,
            arrivalMs: 0,
            ttftMs: 11,
            e2eMs: 110,
            segments: [2, 8, 1, 100],
          },
        ],
      },
      "ttft",
    );
    expect(rows[0]).toEqual({
      idx: 0,
      label: "request id r0",
      ctx_queue: 2,
      ctx_processing: 8,
      ctx_postprocessing: 1,
      [NOT_RECORDED_KEY]: [],
    });
    const sum = ["ctx_queue", "ctx_processing", "ctx_postprocessing"].reduce(
      (a, k) => a + (rows[0][k] as number),
      0,
    );
    expect(sum).toBe(11);
  });

  it("TTFT scope takes shares of the TTFT segments' sum, not of the request time", () => {
    const share = (scope: "all" | "ttft") =>
      segmentShareRows(
        {
          segmentNames: ["ctx_queue", "ctx_processing", "decode"],
          bucketMs: 1000,
          buckets: [{ startMs: 0, requests: 1, meanMs: [1, 3, 96] }],
        },
        scope,
      );
    expect(share("all")).toEqual([
      { startS: 0, requests: 1, ctx_queue: 0.01, ctx_processing: 0.03, decode: 0.96 },
    ]);
    expect(share("ttft")).toEqual([{ startS: 0, requests: 1, ctx_queue: 0.25, ctx_processing: 0.75 }]);
  });

  it("waterfall rows say 'not recorded' and 'excluded' rather than 0 ms", () => {
    const detail = {
      arrivalMs: 100,
      segments: [
        { name: "a", label: "A", startMs: 100, value: 5 },
        { name: "b", label: "B", startMs: 105, value: null },
        { name: "c", label: "C", startMs: 110, value: { excludedMs: -12 } },
      ],
    } as unknown as RequestDetail;
    const rows = waterfallRows(detail, (ms) => `${ms} ms`);
    expect(rows.map((r) => [r.status, r.offsetMs, r.durationMs, r.text])).toEqual([
      ["recorded", 0, 5, "5 ms"],
      ["not-recorded", 5, 0, "not recorded"],
      ["excluded", 10, 0, "excluded (-12 ms)"],
    ]);
  });

  it("a waterfall names each segment in words, as the Breakdown view's table does; the upstream name stays the key", () => {
    const detail = {
      arrivalMs: 0,
      segments: [
        { name: "disagg_preprocessing", label: "Route", startMs: 0, value: 1 },
        { name: "ctx_queue", label: "Queue", startMs: 1, value: 2 },
        { name: "gen_kv_transfer", label: "Transfer", startMs: 3, value: 4 },
        { name: "gen_postprocessing", label: "First step", startMs: 7, value: null },
        { name: "decode", label: "Decode", startMs: 8, value: 9 },
      ],
    } as unknown as RequestDetail;
    const rows = waterfallRows(detail, (ms) => `${ms} ms`);
    expect(rows.map((r) => r.words)).toEqual([
      "disagg preprocessing",
      "context queue",
      "generation KV transfer",
      "generation postprocessing",
      "decode",
    ]);
    expect(rows.map((r) => r.name)).toEqual([
      "disagg_preprocessing",
      "ctx_queue",
      "gen_kv_transfer",
      "gen_postprocessing",
      "decode",
    ]);
  });

  it("a waterfall leaves out gen_queue when the KV-transfer spans tile that stretch", () => {
    const detail = {
      arrivalMs: 0,
      segments: [
        { name: "gen_queue", label: "Q", startMs: null, value: null },
        { name: "gen_kv_transfer", label: "T", startMs: 0, value: 4 },
      ],
    } as unknown as RequestDetail;
    expect(waterfallRows(detail, (ms) => `${ms} ms`).map((r) => r.name)).toEqual(["gen_kv_transfer"]);
  });
});

describe("step timeline bars", () => {
  it("lays CPU parts end to end and GPU parts from the forward and sample starts", async () => {
    const { stepTimelineBars } = await import("@/lib/metrics/trtllm-step-timeline");
    const detail = {
      arrivalMs: 100,
      steps: [
        {
          kind: "step",
          iter: 1,
          startMs: 110,
          forwardMs: 4,
          updateMs: 1,
          sampleMs: 2,
          gpuForwardMs: 3,
          gpuSampleMs: 1,
        },
        {
          kind: "step",
          iter: 2,
          startMs: null,
          forwardMs: 4,
          updateMs: 1,
          sampleMs: 2,
          gpuForwardMs: 3,
          gpuSampleMs: 1,
        },
      ],
    } as unknown as RequestDetail;
    expect(stepTimelineBars(detail).map((b) => [b.part, b.lane, b.x1, b.x2])).toEqual([
      ["forward", 1, 10, 14],
      ["update", 1, 14, 15],
      ["sample", 1, 15, 17],
      ["gpu forward", 0, 10, 13],
      ["gpu sample", 0, 15, 16],
    ]);
  });
});
