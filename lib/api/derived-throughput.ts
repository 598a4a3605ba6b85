/**
 * Derived throughput (docs/metrics.md §Derived throughput): per-GPU and per-user figures from a
 * run's throughput and its GPU count fact. A figure whose input is unknown is null with the
 * reason; a GPU count is never assumed.
 */
import { z } from "zod";

export const DERIVED_STATS = ["mean", "p50", "p90", "p99"] as const;
export type DerivedStat = (typeof DERIVED_STATS)[number];

const perStat = <T extends z.ZodType>(v: T) =>
  z.object({ mean: v, p50: v, p90: v, p99: v }) as z.ZodObject<Record<DerivedStat, T>>;

/** The run-level inputs, stored at ingest (the GPU count is read when served: it can be edited). */
export const throughputInputsSchema = z.object({
  /** "records" or "aiperf summary" (or the producer), and why when the summary was preferred */
  source: z.string(),
  note: z.string().nullable(),
  outputTokPerS: z.number().nullable(),
  totalTokPerS: z.number().nullable(),
  requestsPerS: z.number().nullable(),
  /** Time per output token (aiperf's inter-token latency), ms, per statistic */
  tpotMs: perStat(z.number().nullable()).nullable(),
  /** Per-request 1000 / TPOT, as aiperf's output_token_throughput_per_user, per statistic */
  tokPerUser: perStat(z.number().nullable()).nullable(),
});
export type ThroughputInputs = z.infer<typeof throughputInputsSchema>;

export const derivedValueSchema = z.object({
  value: z.number().nullable(),
  /** Why the value is null (what is missing and how to get it) */
  reason: z.string().nullable(),
});
export type DerivedValue = z.infer<typeof derivedValueSchema>;

export const derivedThroughputSchema = z.object({
  gpuCount: z.number().nullable(),
  /** The GPU count fact's source ("GPU telemetry (2 distinct GPUs)", "edited"), shown beside per-GPU figures */
  gpuCountSource: z.string().nullable(),
  /** Where the throughput inputs came from */
  source: z.string().nullable(),
  note: z.string().nullable(),
  outputTokPerSPerGpu: derivedValueSchema,
  totalTokPerSPerGpu: derivedValueSchema,
  requestsPerSPerGpu: derivedValueSchema,
  tokPerUser: perStat(derivedValueSchema),
});
export type DerivedThroughput = z.infer<typeof derivedThroughputSchema>;

export const GPU_COUNT_UNKNOWN = "GPU count unknown — set it";
