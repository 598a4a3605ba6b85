"use client";

import { TimeLines } from "@/components/server-metrics/time-lines";
import { formatCount } from "@/lib/format-number";
import { hasField, timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";

/** KV usage against capacity: used tokens under the capacity line when capacity is known, else %. */
export function ChartLineKvUsage({ series }: { series: SmSeriesPayload }) {
  const tokens = series.kvCapacityTokens !== null && hasField(series, "kvUsedTokens");
  return tokens ? (
    <TimeLines
      title={`KV cache used vs capacity — ${series.label}`}
      description={`Tokens held in KV cache per interval; dashed line = capacity ${formatCount(series.kvCapacityTokens)}`}
      exportName="kv-usage-tokens"
      rows={timeRows(series, ["kvUsedTokens"])}
      lines={[{ key: "kvUsedTokens", name: "used tokens", color: "var(--chart-1)" }]}
      reference={{ y: series.kvCapacityTokens!, label: "capacity" }}
      yMax={series.kvCapacityTokens!}
    />
  ) : (
    <TimeLines
      title={`KV cache usage — ${series.label}`}
      description="Mean and peak usage per interval; 100% = capacity"
      exportName="kv-usage-percent"
      rows={timeRows(series, ["kvUsage", "kvUsageMax"], 100)}
      lines={[
        { key: "kvUsage", name: "mean", color: "var(--chart-1)" },
        { key: "kvUsageMax", name: "peak", color: "var(--chart-4)" },
      ]}
      unit="%"
      yMax={100}
      reference={{ y: 100, label: "capacity" }}
    />
  );
}
