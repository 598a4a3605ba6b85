"use client";

import { ChartBarCompareRuns, type RunColumn } from "@/components/charts/chart-bar-compare-runs";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { formatBytesPerSecond, formatCount, formatNumber, formatRate } from "@/lib/format-number";

/** Deltas of one group as grouped-bar items: one category per metric, one bar per run. */
function itemsOf(data: CompareResponse, keys: string[]) {
  return data.rows
    .filter((r) => keys.includes(r.key))
    .map((r) => ({ key: r.label, values: Object.fromEntries(r.cells.map((c) => [c.runId, c.value])) }));
}

/** Hit rate by endpoint and role, KV capacity and usage, offload bandwidth and throughput, run by run. */
export function CompareMetricCharts({ data, runs }: { data: CompareResponse; runs: RunColumn[] }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartBarCompareRuns
        title="Cache hit rate by role"
        description="Token-weighted: Σ cached prompt tokens / Σ prompt tokens per role"
        items={data.hitRates.byRole}
        runs={runs}
        format={formatRate}
        exportName="compare-hit-rate-by-role"
      />
      <ChartBarCompareRuns
        title="Cache hit rate by endpoint"
        description="Each endpoint's own counters (or TRT-LLM perf-metrics block reuse)"
        items={data.hitRates.byEndpoint}
        runs={runs}
        format={formatRate}
        exportName="compare-hit-rate-by-endpoint"
      />
      <ChartBarCompareRuns
        title="KV capacity"
        description="GPU KV-cache tokens, summed per pool"
        items={itemsOf(data, ["kvCapacity"])}
        runs={runs}
        format={formatCount}
        exportName="compare-kv-capacity"
      />
      <ChartBarCompareRuns
        title="KV usage"
        description="Share of the KV cache in use, average and peak"
        items={itemsOf(data, ["kvUsageAvg", "kvUsageMax"])}
        runs={runs}
        format={formatRate}
        exportName="compare-kv-usage"
      />
      <ChartBarCompareRuns
        title="Offload bandwidth"
        description="KV bytes moved per second between GPU and CPU"
        items={itemsOf(data, ["offloadGpuToCpu", "offloadCpuToGpu"])}
        runs={runs}
        format={formatBytesPerSecond}
        exportName="compare-offload-bandwidth"
      />
      <ChartBarCompareRuns
        title="Request throughput"
        description="Requests per second"
        items={itemsOf(data, ["requestThroughput"])}
        runs={runs}
        format={(v) => formatNumber(v)}
        exportName="compare-request-throughput"
      />
      <ChartBarCompareRuns
        title="Output token throughput"
        description="Output tokens per second"
        items={itemsOf(data, ["outputTokenThroughput"])}
        runs={runs}
        format={(v) => formatNumber(v, 0)}
        exportName="compare-token-throughput"
      />
    </div>
  );
}
