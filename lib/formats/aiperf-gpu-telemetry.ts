/**
 * One line of `gpu_telemetry_export.jsonl` (docs/formats.md §GPU telemetry): one GPU, one scrape.
 * Field names come in two generations — `gpu_power_usage` (≤0.7) and `nvidia_power_usage` /
 * `amd_power` (schema 1.5) — and the source is `dcgm_url` or, newer, `telemetry_source_url`.
 */
export interface GpuSample {
  /** Exact wall-clock nanoseconds */
  timestampNs: bigint;
  source: string;
  gpuIndex: number | null;
  gpuUuid: string | null;
  gpuModel: string | null;
  hostname: string | null;
  powerW: number | null;
  utilizationPct: number | null;
  memoryUsedGb: number | null;
  /** Cumulative counter in megajoules (aiperf's unit) */
  energyMj: number | null;
}

/** Each quantity's names across aiperf versions (schema 1.5 vendor-scoped them); also the summary's. */
export const GPU_METRIC_ALIASES = {
  powerW: ["gpu_power_usage", "nvidia_power_usage", "amd_power"],
  utilizationPct: ["gpu_utilization", "nvidia_gpu_utilization", "amd_gfx_activity"],
  memoryUsedGb: ["gpu_memory_used", "nvidia_memory_used", "nvidia_gpu_memory_used", "amd_memory_used"],
  energyMj: ["energy_consumption", "nvidia_energy_consumption", "amd_energy_consumption"],
} as const;

function pick(data: Record<string, unknown>, names: readonly string[]): number | null {
  for (const n of names) {
    const v = data[n];
    if (typeof v === "number" && Number.isFinite(v)) return v;
  }
  return null;
}

export function parseGpuSample(value: unknown, text: string): GpuSample | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const o = value as Record<string, unknown>;
  const data = o.telemetry_data;
  if (typeof data !== "object" || data === null) return "no telemetry_data object";
  // Exact digits from the text: JSON.parse rounds ns timestamps beyond 2^53. A number that is
  // not finite (1e400 parses to Infinity) would make BigInt throw: the sample is skipped instead.
  const m = /"timestamp_ns"\s*:\s*(\d+)(?![\d.eE])/.exec(text);
  const ts = m
    ? BigInt(m[1])
    : typeof o.timestamp_ns === "number" && Number.isFinite(o.timestamp_ns)
      ? BigInt(Math.round(o.timestamp_ns))
      : null;
  if (ts === null) return "no timestamp_ns";
  const d = data as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return {
    timestampNs: ts,
    source: str(o.dcgm_url) ?? str(o.telemetry_source_url) ?? "unknown",
    gpuIndex: typeof o.gpu_index === "number" ? o.gpu_index : null,
    gpuUuid: str(o.gpu_uuid),
    gpuModel: str(o.gpu_model_name),
    hostname: str(o.hostname),
    powerW: pick(d, GPU_METRIC_ALIASES.powerW),
    utilizationPct: pick(d, GPU_METRIC_ALIASES.utilizationPct),
    memoryUsedGb: pick(d, GPU_METRIC_ALIASES.memoryUsedGb),
    energyMj: pick(d, GPU_METRIC_ALIASES.energyMj),
  };
}
