/**
 * aiperf's GPU statistics from its summary's `telemetry_data` (docs/metrics.md §GPU telemetry),
 * for runs without the per-sample gpu_telemetry_export.jsonl: power, utilisation, memory and the
 * energy the GPU's counter advanced by, one row per physical GPU. Pure.
 */
import type { GpuSummaryPayload } from "@/lib/api/aiperf-charts";
import type { SummaryMetric, TelemetryGpu } from "@/lib/formats/aiperf-summary";

/** Energy units aiperf writes (DCGM's counter is mJ; aiperf displays MJ) → joules */
const TO_J: Record<string, number> = { mJ: 1e-3, J: 1, kJ: 1e3, MJ: 1e6, GJ: 1e9, Wh: 3600, kWh: 3.6e6 };
/** Memory units → GB */
const TO_GB: Record<string, number> = {
  B: 1e-9,
  KB: 1e-6,
  MB: 1e-3,
  GB: 1,
  TB: 1e3,
  MiB: 1.048576e-3,
  GiB: 1.073741824,
};

/** Utilisation or memory used above 0 at some time: its max (or mean, where no max was written). */
export function hadWork(g: TelemetryGpu): boolean {
  const { utilizationPct: u, memoryUsedGb: m } = g.metrics;
  return [u?.max, u?.avg, m?.max, m?.avg].some((v) => v !== undefined && v > 0);
}

const value = (v: number | undefined) => (v === undefined ? null : v);

function scaled(
  b: SummaryMetric | undefined,
  v: number | undefined,
  table: Record<string, number>,
  unit: string,
) {
  if (!b || v === undefined) return null;
  const factor = b.unit === undefined ? 1 : b.unit === unit ? 1 : table[b.unit];
  return factor === undefined ? null : v * factor;
}

/** One GPU scraped through two exporters appears under both endpoints with one uuid: once here. */
export function gpuSummaryPayload(listed: readonly TelemetryGpu[]): GpuSummaryPayload | null {
  const seen = new Set<string>();
  const gpus: GpuSummaryPayload["gpus"] = [];
  for (const g of listed) {
    const id = g.uuid ? `uuid:${g.uuid}` : `${g.endpoint}|${g.index ?? "?"}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const m = g.metrics;
    const e = m.energyMj;
    // Older summaries give the counter's statistics (max − min is what it advanced by); newer
    // aiperf computes the counter's delta itself and writes it as the only value
    // (ai-dynamo/aiperf src/aiperf/gpu_telemetry/constants.py GPU_TELEMETRY_COUNTER_METRICS).
    const energy =
      e?.max !== undefined && e.min !== undefined
        ? scaled(e, e.max - e.min, TO_J, "J")
        : e?.avg !== undefined && e.max === undefined
          ? scaled(e, e.avg, TO_J, "J")
          : null;
    gpus.push({
      label: `${g.endpoint} · GPU ${g.index ?? "?"}`,
      model: g.name,
      busy: m.utilizationPct || m.memoryUsedGb ? hadWork(g) : null,
      powerAvgW: value(m.powerW?.avg),
      powerMaxW: value(m.powerW?.max),
      utilizationAvgPct: value(m.utilizationPct?.avg),
      utilizationMaxPct: value(m.utilizationPct?.max),
      memoryUsedMaxGb: scaled(m.memoryUsedGb, m.memoryUsedGb?.max, TO_GB, "GB"),
      energyJ: energy,
    });
  }
  return gpus.length > 0 ? { gpus } : null;
}
