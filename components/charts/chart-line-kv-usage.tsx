"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { formatCount } from "@/lib/format-number";
import { hasField, timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SERVER_GAUGE } from "@/components/charts/definitions";

/** KV usage against capacity: used tokens under the capacity line when capacity is known, else %. */
export function ChartLineKvUsage({ series }: { series: SmSeriesPayload }) {
  const capacity = hasField(series, "kvUsedTokens") ? series.kvCapacityTokens : null;
  return capacity !== null ? (
    <TimeLines
      title={`KV cache used vs capacity — ${series.label}`}
      description={`Tokens held in KV cache per interval; dashed line = capacity ${formatCount(capacity)}`}
      exportName="kv-usage-tokens"
      definition={{ ...SERVER_GAUGE, method: "usage gauge samples: mean and peak per interval" }}
      missing="No interval has a KV usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization; TensorRT-LLM needs enable_iter_perf_stats)."
      rows={timeRows(series, ["kvUsedTokens"])}
      series={{ kvUsedTokens: { label: "used tokens", color: "var(--chart-1)" } }}
      yTitle="KV cache used"
      unit="tokens"
      reference={{ y: capacity, label: "capacity" }}
      yMax={capacity}
    />
  ) : (
    <TimeLines
      title={`KV cache usage — ${series.label}`}
      description="Mean and peak usage per interval; 100% = capacity"
      exportName="kv-usage-percent"
      definition={{ ...SERVER_GAUGE, method: "usage gauge samples: mean and peak per interval" }}
      missing="No interval has a KV usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization; TensorRT-LLM needs enable_iter_perf_stats)."
      rows={timeRows(series, ["kvUsage", "kvUsageMax"], 100)}
      series={{
        kvUsage: { label: "mean", color: "var(--chart-1)" },
        kvUsageMax: { label: "peak", color: "var(--chart-4)" },
      }}
      yTitle="KV usage"
      unit="%"
      yMax={100}
      reference={{ y: 100, label: "capacity" }}
    />
  );
}
