/**
 * The run-view manifest's has-data rules (lib/api/run-views.ts) and the chart kit's "anything to
 * draw" rule (components/charts/plot-marks.ts): a tab is enabled, and a chart drawn, only when
 * there is a figure to show.
 */
import { describe, expect, it } from "vitest";
import { plotMarks } from "@/components/charts/plot-marks";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { EMPTY_BLOCKS } from "@/lib/runs/read-run";
import { runDerived } from "@/lib/runs/run-derived";
import type { RunSummary, ServerMetricsBlock } from "@/lib/api/schemas";
import { hasAiperfAgreement, hasCacheData, hasKvData, runView } from "@/lib/api/run-views";

const EMPTY_SM: ServerMetricsBlock = {
  backend: "vllm",
  cache: {
    gpuHitRate: null,
    cpuHitRate: null,
    overallHitRate: null,
    method: null,
    externalHitRate: null,
    lookupTokens: null,
    servedTokens: { gpu: null, host: null, external: null },
    gaugeHitRateAvg: null,
    histogramHitRate: null,
    lmcacheHitRate: null,
    countersExported: [],
  },
  kvCache: { gpuTotalTokens: null, gpuUsageAvg: null, gpuUsageMax: null },
  kvOffload: {
    bytesGpuToCpu: 1e7,
    bytesCpuToGpu: null,
    bandwidthGpuToCpuBytesPerSecond: null,
    bandwidthCpuToGpuBytesPerSecond: null,
  },
  tokens: { promptTotal: null, cachedTotal: null, generationTotal: null },
};

function run(over: Partial<RunSummary>): RunSummary {
  return {
    id: "r",
    name: "r",
    createdAt: "2026-12-01T00:00:00Z",
    labels: [],
    status: "ready",
    aggregatorVersion: 4,
    ingestedAt: 0,
    recompute: null,
    series: null,
    commit: null,
    branch: null,
    order: null,
    summaryReadyAt: null,
    drilldownReadyAt: null,
    files: [],
    error: null,
    ...EMPTY_BLOCKS,
    collectors: {} as RunSummary["collectors"],
    facts: EMPTY_FACTS,
    derived: runDerived(EMPTY_BLOCKS, EMPTY_FACTS),
    ...over,
  };
}

describe("run-view manifest", () => {
  it("server metrics with only offload counters enable Offload, not Cache or KV", () => {
    const r = run({ serverMetrics: EMPTY_SM });
    expect(runView("offload").hasData(r)).toBe(true);
    expect(runView("cache").hasData(r)).toBe(false);
    expect(runView("kv").hasData(r)).toBe(false);
    expect(runView("kv").missing).toContain("enable_iter_perf_stats");
  });

  it("a measured 0 % is data; a null is not", () => {
    const zero = run({
      serverMetrics: {
        ...EMPTY_SM,
        cache: { ...EMPTY_SM.cache, gpuHitRate: 0 },
        kvCache: { ...EMPTY_SM.kvCache, gpuUsageAvg: 0 },
      },
    });
    expect(hasCacheData(zero)).toBe(true);
    expect(hasKvData(zero)).toBe(true);
  });

  it("the perf-metrics block hit rate alone enables Cache", () => {
    const r = run({
      timeBreakdown: {
        mode: "disaggregated",
        requestCount: 1,
        segments: [],
        kvCacheHitRate: 18 / 19,
        kvBlockLookups: 19,
        kvTransfer: null,
        latency: null,
      },
    });
    expect(hasCacheData(r)).toBe(true);
    expect(hasKvData(r)).toBe(false);
  });

  it("the agreement payload is asked for only with records and a summary", () => {
    const file = (kind: string) => ({ kind }) as RunSummary["files"][number];
    expect(hasAiperfAgreement(run({ files: [file("aiperf-records")] }))).toBe(false);
    expect(hasAiperfAgreement(run({ files: [file("aiperf-summary")] }))).toBe(false);
    expect(hasAiperfAgreement(run({ files: [file("aiperf-records"), file("aiperf-summary")] }))).toBe(true);
  });
});

describe("plotMarks", () => {
  const series = { v: { label: "v", color: "red" } };
  it("a line needs two finite points; one point draws nothing", () => {
    expect(plotMarks("line", [{ v: 1 }], series, {})).toBe("none");
    expect(plotMarks("line", [{ v: 1 }, { v: null }, { v: 2 }], series, {})).toBe("some");
    expect(plotMarks("line", [{ v: 1 }], { v: { ...series.v, dots: true } }, {})).toBe("some");
  });
  it("bars of 0 have no length; nulls are no bars", () => {
    expect(plotMarks("bar", [{ v: null }, { v: null }], series, {})).toBe("none");
    expect(plotMarks("bar", [{ v: 0 }, { v: null }], series, {})).toBe("zeros");
    expect(plotMarks("bar", [{ v: 0 }, { v: 0.9 }], series, {})).toBe("some");
  });
  it("a scatter point needs its y value; hidden series do not count", () => {
    expect(plotMarks("scatter", [{ t: 1, y: null }], series, { key: "y" })).toBe("none");
    expect(plotMarks("scatter", [{ t: 1, y: 3 }], series, { key: "y" })).toBe("some");
    expect(plotMarks("bar", [{ v: 5 }], { v: { ...series.v, hidden: true } }, {})).toBe("none");
  });
});
