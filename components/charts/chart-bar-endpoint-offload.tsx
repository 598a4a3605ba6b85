"use client";

import { EndpointBars } from "@/components/server-metrics/endpoint-bars";
import { byteRateUnit, formatBytesPerSecond, formatNumber } from "@/lib/format-number";
import { endpointBarRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import { SERVER_COUNTERS } from "@/components/charts/definitions";

const METRIC = {
  gpuToCpu: "offloadBandwidthGpuToCpuBytesPerSecond",
  cpuToGpu: "offloadBandwidthCpuToGpuBytesPerSecond",
} as const;

/** KV offload bandwidth per endpoint, one direction, in the byte rate unit its largest bar reads in. */
export function ChartBarEndpointOffload({
  rows,
  direction,
}: {
  rows: SmEndpointDetail[];
  direction: keyof typeof METRIC;
}) {
  const method = rows.find((r) => r.offloadBandwidthMethod)?.offloadBandwidthMethod ?? "";
  const bars = endpointBarRows(rows, METRIC[direction]);
  const { unit, divisor } = byteRateUnit(Math.max(0, ...bars.map((r) => r.value)));
  return (
    <EndpointBars
      title={direction === "gpuToCpu" ? "Offload bandwidth GPU → CPU" : "Onboard bandwidth CPU → GPU"}
      description={`${unit} per endpoint (${method})`}
      definition={{
        window: SERVER_COUNTERS.window,
        method: method.includes("transfer")
          ? "bytes / seconds spent transferring (the link's bandwidth)"
          : "bytes / window length (an average rate, not the link's bandwidth)",
      }}
      rows={bars.map((r) => ({ ...r, value: r.value / divisor }))}
      valueTitle={`bandwidth (${unit})`}
      exportName={`endpoint-offload-${direction}`}
      missing="No endpoint exports offload bytes in this direction (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes)."
      format={(v) => `${formatNumber(v, 2)} ${unit}`}
      // A bar's label in its own unit: 5 MB/s, not 0.01 GB/s.
      valueFormat={(v) => formatBytesPerSecond(v * divisor)}
    />
  );
}
