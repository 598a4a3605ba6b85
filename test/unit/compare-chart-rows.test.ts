import { describe, expect, it } from "vitest";
import { cdfCsvRows, cdfPoints, groupedRows, segmentBarRows } from "@/lib/metrics/compare-chart-rows";
import { summary } from "./compare-helpers";

const seg = (name: string, p50Ms: number | null) => ({
  name,
  label: name,
  count: 3,
  meanMs: 1,
  p50Ms,
  p75Ms: null,
  p90Ms: 9,
  p95Ms: null,
  p99Ms: 99,
});

describe("compare chart rows", () => {
  it("stacks each run's segments at the statistic, union of segments in first-seen order", () => {
    const a = summary("a", {
      name: "A",
      timeBreakdown: {
        mode: "aggregated",
        requestCount: 3,
        segments: [seg("ctx_queue", 2), seg("decode", 5)],
        kvCacheHitRate: null,
        kvBlockLookups: null,
        kvTransfer: null,
        latency: null,
      },
    });
    const b = summary("b", {
      name: "B",
      timeBreakdown: {
        mode: "disaggregated",
        requestCount: 3,
        segments: [seg("gen_kv_transfer", 7), seg("decode", null)],
        kvCacheHitRate: null,
        kvBlockLookups: null,
        kvTransfer: null,
        latency: null,
      },
    });
    const none = summary("c");
    const { segments, rows } = segmentBarRows([a, b, none], "p50");
    expect(segments.map((s) => s.name)).toEqual(["ctx_queue", "decode", "gen_kv_transfer"]);
    expect(rows).toEqual([
      { runId: "a", run: "A", ctx_queue: 2, decode: 5 },
      { runId: "b", run: "B", gen_kv_transfer: 7 },
    ]);
    expect(segmentBarRows([a], "p99").rows[0]).toMatchObject({ ctx_queue: 99 });
    // A segment no run recorded gets no legend entry.
    const c = summary("d", {
      timeBreakdown: { ...b.timeBreakdown!, segments: [seg("gen_queue", null), seg("decode", 4)] },
    });
    expect(segmentBarRows([c], "p50").segments.map((s) => s.name)).toEqual(["decode"]);
  });

  it("turns CDF fractions into percent and flattens series for CSV", () => {
    const pts = cdfPoints([
      { value: 10, fraction: 0.5 },
      { value: 20, fraction: 1 },
    ]);
    expect(pts).toEqual([
      { valueMs: 10, percent: 50 },
      { valueMs: 20, percent: 100 },
    ]);
    expect(
      cdfCsvRows([
        { run: "A", points: pts },
        { run: "B", points: [pts[0]] },
      ]),
    ).toEqual([
      { run: "A", valueMs: 10, percent: 50 },
      { run: "A", valueMs: 20, percent: 100 },
      { run: "B", valueMs: 10, percent: 50 },
    ]);
  });

  it("widens hit-rate rows to one column per run", () => {
    expect(groupedRows([{ key: "prefill", values: { a: 0.5, b: null } }])).toEqual([
      { key: "prefill", a: 0.5, b: null },
    ]);
  });
});
