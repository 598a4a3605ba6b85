"use client";

import { EndpointBars } from "@/components/server-metrics/endpoint-bars";
import { formatNumber } from "@/lib/format-number";
import { endpointBarRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import { SERVER_COUNTERS } from "@/components/charts/definitions";

const METRIC = {
  gpuToCpu: "offloadBandwidthGpuToCpuBytesPerSecond",
  cpuToGpu: "offloadBandwidthCpuToGpuBytesPerSecond",
} as const;

/** KV offload bandwidth per endpoint in GB/s, one direction. */
export function ChartBarEndpointOffload({
  rows,
  direction,
}: {
  rows: SmEndpointDetail[];
  direction: keyof typeof METRIC;
}) {
  const method = rows.find((r) => r.offloadBandwidthMethod)?.offloadBandwidthMethod ?? "";
  return (
    <EndpointBars
      title={direction === "gpuToCpu" ? "Offload bandwidth GPU → CPU" : "Onboard bandwidth CPU → GPU"}
      description={`GB/s per endpoint (${method})`}
      definition={{
        window: SERVER_COUNTERS.window,
        method: method.includes("transfer")
          ? "bytes / seconds spent transferring (the link's bandwidth)"
          : "bytes / window length (an average rate, not the link's bandwidth)",
      }}
      rows={endpointBarRows(rows, METRIC[direction]).map((r) => ({ ...r, value: r.value / 1e9 }))}
      valueTitle="bandwidth (GB/s)"
      exportName={`endpoint-offload-${direction}`}
      missing="No endpoint exports offload bytes in this direction (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes)."
      format={(v) => `${formatNumber(v, 2)} GB/s`}
    />
  );
}
