"use client";

import { ChartBarCompareRuns, type RunColumn } from "@/components/charts/chart-bar-compare-runs";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import {
  byteRateUnit,
  formatBytesPerSecond,
  formatCount,
  formatFigure,
  formatNumber,
  formatRate,
} from "@/lib/format-number";

type Items = Parameters<typeof ChartBarCompareRuns>[0]["items"];

/** Deltas of one group as grouped-bar items: one category per metric, one bar per run. */
function itemsOf(data: CompareResponse, keys: string[]): Items {
  return data.rows
    .filter((r) => keys.includes(r.key))
    .map((r) => ({ key: r.label, values: Object.fromEntries(r.cells.map((c) => [c.runId, c.value])) }));
}

/** What each chart needs when no run in the comparison has it: the series and how to get it. */
const MISSING: Record<string, string> = {
  "compare-hit-rate-by-role":
    "No run here exports prefix-cache counters or a hit-rate gauge by role (aiperf --server-metrics scrapes of each engine).",
  "compare-hit-rate-by-endpoint":
    "No run here exports per-endpoint prefix-cache counters, a hit-rate gauge, or TensorRT-LLM perf metrics with return_perf_metrics on.",
  "compare-kv-capacity":
    "No run here exports its KV capacity (trtllm_kv_cache_max_blocks × tokens_per_block, vllm:cache_config_info, sglang:max_total_num_tokens) or a server.log.",
  "compare-kv-usage":
    "No run here exports a KV usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization; TensorRT-LLM needs enable_iter_perf_stats).",
  "compare-offload-bandwidth":
    "No run here exports KV offload counters (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes).",
  "compare-request-throughput": "No run here has aiperf request throughput (profile_export_aiperf.json).",
  "compare-token-throughput": "No run here has aiperf output token throughput (profile_export_aiperf.json).",
};

/**
 * One grouped-bar chart each: [export name, title, description, its items, the bars' value format,
 * the value axis's title with its unit]. A throughput axis writes its ticks with the decimals
 * their step needs (THROUGHPUT_AXES), never its figures' rounding (0.25 req/s steps read 0 / 0 / 1).
 */
const CHARTS: Array<[string, string, string, (d: CompareResponse) => Items, (v: number) => string, string]> =
  [
    [
      "compare-hit-rate-by-role",
      "GPU cache hit rate by role",
      "Token-weighted: Σ GPU-cached prompt tokens / Σ prompt tokens per role",
      (d) => d.hitRates.byRole,
      formatRate,
      "hit rate (%)",
    ],
    [
      "compare-hit-rate-by-endpoint",
      "GPU cache hit rate by endpoint",
      "Each endpoint's own counters, GPU-cached / prompt tokens (or TRT-LLM perf-metrics block reuse) · decode counters beside prefill: n/a",
      (d) => d.hitRates.byEndpoint,
      formatRate,
      "hit rate (%)",
    ],
    [
      "compare-kv-capacity",
      "KV capacity",
      "GPU KV-cache tokens, summed per pool",
      (d) => itemsOf(d, ["kvCapacity"]),
      formatCount,
      "KV capacity (tokens)",
    ],
    [
      "compare-kv-usage",
      "KV usage",
      "Share of the KV cache in use, average and peak",
      (d) => itemsOf(d, ["kvUsageAvg", "kvUsageMax"]),
      formatRate,
      "KV usage (%)",
    ],
    [
      "compare-offload-bandwidth",
      "Offload bandwidth",
      "KV bytes moved per second between GPU and CPU",
      (d) => itemsOf(d, ["offloadGpuToCpu", "offloadCpuToGpu"]),
      // Replaced per comparison by the unit of its largest value (offloadAxis).
      (v) => formatBytesPerSecond(v),
      "bandwidth",
    ],
    [
      "compare-request-throughput",
      "Request throughput",
      "Requests per second",
      (d) => itemsOf(d, ["requestThroughput"]),
      // The figure's own decimals, as the Overview and the Latency header write it (0.973).
      (v) => formatFigure(v, "req/s"),
      "request throughput (req/s)",
    ],
    [
      "compare-token-throughput",
      "Output token throughput",
      "Output tokens per second",
      (d) => itemsOf(d, ["outputTokenThroughput"]),
      // 194.51, as the Overview tile, the Latency header and the sweep table write it.
      (v) => formatFigure(v, "tok/s"),
      "output throughput (tok/s)",
    ],
  ];

/** Charts whose ticks take the decimals of their step (components/charts/axis-ticks.ts). */
const THROUGHPUT_AXES = new Set(["compare-request-throughput", "compare-token-throughput"]);

/**
 * The offload chart's axis in one unit, chosen by its largest value; each bar's label and tooltip
 * keep their own unit (5 MB/s beside 9.5 GB/s).
 */
function offloadAxis(items: Items): { format: (v: number) => string; valueTitle: string } {
  const max = Math.max(0, ...items.flatMap((i) => Object.values(i.values).filter((v) => v !== null)));
  const { unit, divisor } = byteRateUnit(max);
  return { format: (v) => formatNumber(v / divisor, 2), valueTitle: `bandwidth (${unit})` };
}

/**
 * A bar's label with its unit, as the tables write it: the unit in the axis title's brackets
 * ("178 tok/s"), unless the text already carries one ("45.0%", "5 MB/s").
 */
function withUnit(format: (v: number) => string, valueTitle: string): (v: number) => string {
  const unit = /\(([^)]+)\)$/.exec(valueTitle)?.[1];
  return (v) => {
    const text = format(v);
    return unit && unit !== "%" && !text.endsWith(unit) ? `${text} ${unit}` : text;
  };
}

/** Hit rate by endpoint and role, KV capacity and usage, offload bandwidth and throughput, run by run. */
export function CompareMetricCharts({ data, runs }: { data: CompareResponse; runs: RunColumn[] }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {CHARTS.map(([exportName, title, description, itemsFor, format, valueTitle]) => {
        const items = itemsFor(data);
        const axis =
          exportName === "compare-offload-bandwidth"
            ? offloadAxis(items)
            : { format: THROUGHPUT_AXES.has(exportName) ? undefined : format, valueTitle };
        return (
          <ChartBarCompareRuns
            key={exportName}
            {...{ exportName, title, description, runs, items }}
            format={axis.format}
            valueFormat={withUnit(format, valueTitle)}
            valueTitle={axis.valueTitle}
            missing={MISSING[exportName]}
          />
        );
      })}
    </div>
  );
}
