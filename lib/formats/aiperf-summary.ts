/**
 * aiperf's run summary, `profile_export_aiperf.json` (docs/formats.md §aiperf summary): metric blocks
 * keyed by tag plus provenance. Three generations: no `schema_version` with explicit nulls
 * (pre-0.4), 1.0, and 1.1–1.5 (`count`/`sum`, `run_info`, v2 `input_config`). Unknown keys are
 * ignored; a bare number where a block is expected (hand-made files) counts as its `avg`.
 */
import { GPU_METRIC_ALIASES } from "./aiperf-gpu-telemetry";
import { readInputConfig, type AiperfRunConfig } from "./aiperf-input-config";
import { aiperfRunConfig, type RunConfigInfo } from "./run-config";
import { OLD_METRIC_TAGS } from "./aiperf-record-read.mjs";

export const SUMMARY_STAT_KEYS = [
  "avg",
  "min",
  "max",
  "p1",
  "p5",
  "p10",
  "p25",
  "p50",
  "p75",
  "p90",
  "p95",
  "p99",
  "std",
  "count",
  "sum",
] as const;
export type SummaryStatKey = (typeof SUMMARY_STAT_KEYS)[number];

export type SummaryMetric = { unit: string | undefined } & Partial<Record<SummaryStatKey, number>>;

export interface SummaryErrorEntry {
  type: string;
  code: number | null;
  message: string;
  count: number;
}

export interface AiperfSummary {
  schemaVersion: string | null;
  aiperfVersion: string | null;
  metrics: Record<string, SummaryMetric>;
  config: AiperfRunConfig;
  errorSummary: SummaryErrorEntry[];
  /** Whether aiperf itself said the run was cancelled */
  wasCancelled: boolean | null;
  /** GPUs the summary's `telemetry_data.endpoints` describe, one entry per exporter and GPU */
  telemetryGpus: TelemetryGpu[];
  /**
   * Schema 1.4+ `warmup_metrics`: the same blocks over warm-up requests only; null when the
   * summary has none (older schemas, or no warm-up phase)
   */
  warmupMetrics: Record<string, SummaryMetric> | null;
  /** Prompt source, seed and submission validity (./run-config.ts), as run info entries */
  runConfig: RunConfigInfo;
}

export interface TelemetryGpu {
  endpoint: string;
  index: number | null;
  uuid: string | null;
  name: string | null;
  /** The GPU's statistics over the run, under one name across versions; absent when not written */
  metrics: Partial<Record<GpuQuantity, SummaryMetric>>;
}

/** `telemetry_data.endpoints.<host:port>.gpus.<gpu_N>` of a summary (schema 1.x). */
export function readTelemetryGpus(raw: unknown): TelemetryGpu[] {
  const endpoints = obj(obj(raw)?.endpoints);
  if (!endpoints) return [];
  const out: TelemetryGpu[] = [];
  for (const [endpoint, e] of Object.entries(endpoints)) {
    for (const g of Object.values(obj(obj(e)?.gpus) ?? {})) {
      const gpu = obj(g);
      if (!gpu) continue;
      out.push({
        endpoint,
        index: typeof gpu.gpu_index === "number" ? gpu.gpu_index : null,
        uuid: typeof gpu.gpu_uuid === "string" && gpu.gpu_uuid !== "" ? gpu.gpu_uuid : null,
        name: typeof gpu.gpu_name === "string" && gpu.gpu_name !== "" ? gpu.gpu_name : null,
        metrics: telemetryMetrics(gpu.metrics),
      });
    }
  }
  return out;
}

export type GpuQuantity = keyof typeof GPU_METRIC_ALIASES;

/**
 * Schema 1.5 renamed NVIDIA telemetry to `nvidia_*` (`nvidia_power_usage`, `nvidia_gpu_utilization`)
 * and keeps AMD under `amd_*` (ai-dynamo/aiperf docs/reference/json-export-schema.md); older
 * summaries write `gpu_power_usage`, `gpu_utilization`, `gpu_memory_used`, `energy_consumption`.
 * Each quantity is read by whichever name the file uses.
 */
function telemetryMetrics(raw: unknown): Partial<Record<GpuQuantity, SummaryMetric>> {
  const o = obj(raw) ?? {};
  const out: Partial<Record<GpuQuantity, SummaryMetric>> = {};
  for (const [q, names] of Object.entries(GPU_METRIC_ALIASES) as Array<[GpuQuantity, readonly string[]]>) {
    for (const n of names) {
      const block = readBlock(o[n]);
      if (block) {
        out[q] = block;
        break;
      }
    }
  }
  return out;
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function readBlock(raw: unknown): SummaryMetric | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? { unit: undefined, avg: raw } : null;
  const o = obj(raw);
  if (!o) return null;
  const block: SummaryMetric = { unit: typeof o.unit === "string" ? o.unit : undefined };
  let any = false;
  for (const k of SUMMARY_STAT_KEYS) {
    const v = o[k];
    if (typeof v === "number" && Number.isFinite(v)) {
      block[k] = v;
      any = true;
    }
  }
  return any ? block : null;
}

/** Keys of the summary document that are not metric blocks. */
const NON_METRIC_KEYS = new Set([
  "schema_version",
  "aiperf_version",
  "benchmark_id",
  "input_config",
  "run_info",
  "telemetry_data",
  "error_summary",
  "warmup_metrics",
  "was_cancelled",
  "start_time",
  "end_time",
  "is_complete",
  "incomplete_reason",
  "branch_stats",
  "pooled_spec_decode_acceptance_histogram",
  "metadata",
]);

export function readErrorSummary(raw: unknown): SummaryErrorEntry[] {
  if (!Array.isArray(raw)) return [];
  const out: SummaryErrorEntry[] = [];
  for (const e of raw) {
    const o = obj(e);
    const d = obj(o?.error_details);
    if (!o || !d) continue;
    const code = typeof d.code === "number" ? d.code : null;
    out.push({
      type: typeof d.type === "string" ? d.type : code !== null ? `HTTP ${code}` : "Error",
      code,
      message: typeof d.message === "string" ? d.message : "",
      count: typeof o.count === "number" ? o.count : 0,
    });
  }
  return out;
}

/** Metric blocks of an object by tag, aiperf 0.1.x short tags (`ttft`, `ttst`) read as today's. */
function metricBlocks(o: Record<string, unknown>, skip: ReadonlySet<string>): Record<string, SummaryMetric> {
  const metrics: Record<string, SummaryMetric> = {};
  for (const [k, v] of Object.entries(o)) {
    if (skip.has(k)) continue;
    const block = readBlock(v);
    if (block) metrics[OLD_METRIC_TAGS[k] ?? k] ??= block;
  }
  return metrics;
}

const NONE = new Set<string>();

export function parseSummaryJson(doc: unknown): AiperfSummary | null {
  const d = obj(doc);
  if (!d) return null;
  // aiperf 0.1.x nested the blocks under a top-level `records` map.
  const nested = obj(d.records);
  const metrics = {
    ...(nested ? metricBlocks(nested, NONE) : {}),
    ...metricBlocks(d, new Set([...NON_METRIC_KEYS, "records"])),
  };
  const warmup = obj(d.warmup_metrics);
  return {
    schemaVersion: typeof d.schema_version === "string" ? d.schema_version : null,
    aiperfVersion: typeof d.aiperf_version === "string" ? d.aiperf_version : null,
    metrics,
    config: readInputConfig(d.input_config),
    errorSummary: readErrorSummary(d.error_summary),
    wasCancelled: typeof d.was_cancelled === "boolean" ? d.was_cancelled : null,
    telemetryGpus: readTelemetryGpus(d.telemetry_data),
    warmupMetrics: warmup ? metricBlocks(warmup, NONE) : null,
    runConfig: aiperfRunConfig(d.input_config, d.metadata, d.run_info),
  };
}
