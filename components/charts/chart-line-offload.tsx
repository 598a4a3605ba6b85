"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";

/** KV offload traffic per interval (counter rate), both directions, GB/s. */
export function ChartLineOffload({ series }: { series: SmSeriesPayload }) {
  return (
    <TimeLines
      title={`KV offload over time — ${series.label}`}
      description="GB/s per interval: bytes moved / interval length (an average rate, not link bandwidth)"
      exportName="offload-over-time"
      missing="No interval has offload bytes (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes)."
      rows={timeRows(series, ["offloadGpuToCpuBytesPerSecond", "offloadCpuToGpuBytesPerSecond"], 1e-9)}
      series={{
        offloadGpuToCpuBytesPerSecond: { label: "GPU → CPU", color: "var(--chart-7)" },
        offloadCpuToGpuBytesPerSecond: { label: "CPU → GPU", color: "var(--chart-2)" },
      }}
      yTitle="bandwidth"
      unit="GB/s"
    />
  );
}
