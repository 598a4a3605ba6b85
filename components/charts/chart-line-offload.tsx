"use client";

import { TimeLines } from "@/components/server-metrics/time-lines";
import { timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";

/** KV offload traffic per interval (counter rate), both directions, GB/s. */
export function ChartLineOffload({ series }: { series: SmSeriesPayload }) {
  return (
    <TimeLines
      title={`KV offload over time — ${series.label}`}
      description="GB/s per interval: bytes moved / interval length (an average rate, not link bandwidth)"
      exportName="offload-over-time"
      rows={timeRows(series, ["offloadGpuToCpuBytesPerSecond", "offloadCpuToGpuBytesPerSecond"], 1e-9)}
      lines={[
        { key: "offloadGpuToCpuBytesPerSecond", name: "GPU → CPU", color: "var(--chart-7)" },
        { key: "offloadCpuToGpuBytesPerSecond", name: "CPU → GPU", color: "var(--chart-2)" },
      ]}
      unit=" GB/s"
    />
  );
}
