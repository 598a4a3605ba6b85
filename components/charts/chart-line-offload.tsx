"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { hasField, timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SERVER_INTERVALS } from "@/components/charts/definitions";
import { byteRateUnit } from "@/lib/format-number";

/**
 * KV offload over time, both directions, in the byte rate unit its largest value reads in: bytes over transfer seconds per interval where the
 * engine counts transfer time (the link's speed), else bytes over the interval (an average rate).
 */
export function ChartLineOffload({ series }: { series: SmSeriesPayload }) {
  const measured =
    hasField(series, "offloadGpuToCpuBandwidth") || hasField(series, "offloadCpuToGpuBandwidth");
  const [out, back] = measured
    ? (["offloadGpuToCpuBandwidth", "offloadCpuToGpuBandwidth"] as const)
    : (["offloadGpuToCpuBytesPerSecond", "offloadCpuToGpuBytesPerSecond"] as const);
  const max = Math.max(0, ...series.points.flatMap((p) => [p[out] ?? 0, p[back] ?? 0]));
  const { unit, divisor } = byteRateUnit(max);
  return (
    <TimeLines
      title={`KV offload over time — ${series.label}`}
      description={
        measured
          ? `Bandwidth, ${unit} per interval: bytes moved / seconds spent transferring them (engine transfer-time counters)`
          : `Traffic, ${unit} per interval: bytes moved / interval length (an average rate, not link bandwidth)`
      }
      exportName="offload-over-time"
      definition={{
        ...SERVER_INTERVALS,
        method: measured
          ? "byte and transfer-time counter deltas per interval (bytes over transfer time)"
          : "byte counter deltas per interval (bytes over the interval, not over transfer time)",
      }}
      missing="No interval has offload bytes (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes)."
      rows={timeRows(series, [out, back], 1 / divisor)}
      series={{
        [out]: { label: "GPU → CPU", color: "var(--chart-7)" },
        [back]: { label: "CPU → GPU", color: "var(--chart-2)" },
      }}
      yTitle={measured ? "bandwidth" : "traffic"}
      unit={unit}
    />
  );
}
