/**
 * Endpoints and workers are listed in natural order (docs/metrics.md §Endpoint order): in the
 * stored payloads, the endpoint rows of a run, the bar charts' rows and the compare table.
 */
import { describe, expect, it } from "vitest";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import type { RunSummary } from "@/lib/api/schemas";
import { WarningLog } from "@/lib/formats/json-lines";
import { parseServerMetricsJson } from "@/lib/formats/server-metrics-json";
import { EMPTY_ENDPOINT, mergeEndpoints } from "@/lib/ingest/merge-results";
import { endpointHitRates } from "@/lib/metrics/compare-endpoints";
import { buildServerMetricsCharts } from "@/lib/metrics/server-metrics/charts";
import { endpointBarRows } from "@/lib/metrics/server-metrics/chart-rows";
import { summarizeServerMetrics } from "@/lib/metrics/server-metrics/summarize";
import type { SmEndpointsPayload } from "@/lib/api/server-metrics-charts";

const NAMES = ["worker-10:9000", "worker-2:9000", "worker-1:9000"];
const NATURAL = ["worker-1:9000", "worker-2:9000", "worker-10:9000"];

describe("natural order of endpoint names", () => {
  it("compares digit runs as numbers and the rest as text", () => {
    expect([...NAMES].sort(compareEndpointNames)).toEqual(NATURAL);
    const ips = ["10.0.0.10:8000", "10.0.0.2:8000", "10.0.1.1:8000", "10.0.0.1:8000"];
    expect(ips.sort(compareEndpointNames)).toEqual([
      "10.0.0.1:8000",
      "10.0.0.2:8000",
      "10.0.0.10:8000",
      "10.0.1.1:8000",
    ]);
    // Leading zeros and digit runs longer than a double holds still order by value, then by text.
    expect(["w-010", "w-9", "w-00010"].sort(compareEndpointNames)).toEqual(["w-9", "w-00010", "w-010"]);
    expect(compareEndpointNames("n-99999999999999999999", "n-100000000000000000000")).toBeLessThan(0);
    expect(compareEndpointNames("prefill-1", "decode-1")).toBeGreaterThan(0);
    expect(compareEndpointNames("a", "a")).toBe(0);
  });
});

describe("every list of endpoints is in natural order", () => {
  const doc = {
    schema_version: "1.0",
    metrics: {
      "vllm:prompt_tokens": {
        type: "counter",
        series: NAMES.map((ep) => ({
          endpoint_url: `http://${ep}/metrics`,
          labels: {},
          stats: { total: 100 },
        })),
      },
      "vllm:cache_config_info": {
        type: "gauge",
        series: NAMES.map((ep) => ({
          endpoint_url: `http://${ep}/metrics`,
          labels: { num_gpu_blocks: "100", block_size: "16" },
          stats: { avg: 1 },
        })),
      },
    },
  };
  const summary = summarizeServerMetrics(parseServerMetricsJson(doc, new WarningLog()));

  it("the run's endpoint rows and the stored endpoints payload", () => {
    expect(summary.rows.map((r) => r.endpoint)).toEqual(NATURAL);
    const payload = buildServerMetricsCharts(summary)["sm-endpoints"] as SmEndpointsPayload;
    expect(payload.rows.map((r) => r.endpoint)).toEqual(NATURAL);
  });

  it("the KV capacity bars, whatever order the payload gives", () => {
    const rows = NAMES.map((endpoint) => ({ endpoint, role: "combined", kvCapacityTokens: 1600 }));
    const bars = endpointBarRows(rows as unknown as SmEndpointDetail[], "kvCapacityTokens");
    expect(bars.map((b) => b.endpoint)).toEqual(NATURAL);
  });

  it("merged endpoint rows of several analyzers, and the compare table", () => {
    const merged = mergeEndpoints([
      { endpoints: [{ endpoint: NAMES[0] }] },
      { endpoints: [{ endpoint: NAMES[1] }, { endpoint: NAMES[2] }] },
    ]);
    expect(merged.map((e) => e.endpoint)).toEqual(NATURAL);
    const run = (id: string, names: string[]) =>
      ({
        id,
        endpoints: names.map((endpoint) => ({ ...EMPTY_ENDPOINT, endpoint, cacheHitRate: 0.5 })),
      }) as unknown as RunSummary;
    const rows = endpointHitRates([run("a", [NAMES[0]]), run("b", [NAMES[1], NAMES[2]])]);
    expect(rows.map((r) => r.key)).toEqual(NATURAL);
  });
});
