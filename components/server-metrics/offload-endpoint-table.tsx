"use client";

import { DataTable } from "@/components/charts/data-table";
import { SERVER_COUNTERS } from "@/components/charts/definitions";
import { bytesIn, formatNumber, formatRate } from "@/lib/format-number";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";

const seconds = (v: number | null) => (v === null ? "—" : formatNumber(v, 4));

/**
 * KV offload per endpoint and direction: bytes, transfer seconds, bandwidth and the method that
 * gave it, with the endpoint's external (CPU-tier) prefix-cache hit rate. Bytes take one unit and
 * bandwidths one unit for the whole table, from the largest of each (10 MB and 5 MB/s, never
 * "0.01 GB" beside "0.005 GB/s").
 */
export function OffloadEndpointTable({ rows }: { rows: SmEndpointDetail[] }) {
  const shown = rows.filter(
    (r) => r.offloadBytesGpuToCpu !== null || r.offloadBytesCpuToGpu !== null || r.externalHitRate !== null,
  );
  if (shown.length === 0) return null;
  const bytes = bytesIn(shown.flatMap((r) => [r.offloadBytesGpuToCpu, r.offloadBytesCpuToGpu]));
  const rates = bytesIn(
    shown.flatMap((r) => [
      r.offloadBandwidthGpuToCpuBytesPerSecond,
      r.offloadBandwidthCpuToGpuBytesPerSecond,
    ]),
  );
  const rate = `${rates.unit}/s`;
  return (
    <DataTable
      framed
      testId="offload-endpoint-table"
      rows={shown}
      rowKey={(r) => r.endpoint}
      rowAttrs={(r) => ({ "data-endpoint": r.endpoint })}
      definition={{
        ...SERVER_COUNTERS,
        method:
          "byte and transfer-time counter deltas over the window; bandwidth = bytes / seconds spent transferring where the engine counts them, else bytes / window length (see bandwidth method)",
      }}
      before={
        <p className="px-3 pt-2 text-sm font-medium">
          KV offload per endpoint{" "}
          <span className="text-muted">
            — {bytes.unit}, seconds of transfer, {rate}
          </span>
        </p>
      }
      after={
        <p className="px-3 pb-2 text-xs text-muted">
          External hit rate: vLLM external_prefix_cache_hits / external_prefix_cache_queries (tokens the KV
          connector, here the CPU tier, served among those the GPU cache missed). Counters:{" "}
          {[...new Set(shown.map((r) => r.offloadSource).filter((s) => s !== null))].join("; ") || "—"}.
        </p>
      }
      columns={[
        { header: "endpoint", cell: (r) => r.endpoint },
        { header: `GPU → CPU (${bytes.unit})`, num: true, cell: (r) => bytes.value(r.offloadBytesGpuToCpu) },
        { header: "time (s)", num: true, cell: (r) => seconds(r.offloadTimeGpuToCpuS) },
        {
          header: rate,
          num: true,
          cell: (r) => rates.value(r.offloadBandwidthGpuToCpuBytesPerSecond),
          attrs: () => ({ "data-stat": "bandwidth-gpu-to-cpu" }),
        },
        { header: `CPU → GPU (${bytes.unit})`, num: true, cell: (r) => bytes.value(r.offloadBytesCpuToGpu) },
        { header: "time (s)", num: true, cell: (r) => seconds(r.offloadTimeCpuToGpuS) },
        {
          header: rate,
          num: true,
          cell: (r) => rates.value(r.offloadBandwidthCpuToGpuBytesPerSecond),
          attrs: () => ({ "data-stat": "bandwidth-cpu-to-gpu" }),
        },
        { header: "bandwidth method", cell: (r) => r.offloadBandwidthMethod ?? "not measurable" },
        {
          header: "KV connector lookup hit rate",
          num: true,
          cell: (r) => (r.externalHitRate === null ? "not exported" : formatRate(r.externalHitRate)),
          attrs: () => ({ "data-stat": "external-hit-rate" }),
        },
      ]}
    />
  );
}
