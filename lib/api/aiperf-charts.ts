/**
 * Shapes of the aiperf chart payloads stored at ingest and served by
 * /api/runs/{id}/charts/{key}. The browser validates with the same schemas.
 */
import { z } from "zod";
import { nullableNumbers, timePoints } from "./fields";
import { statsSchema } from "./schemas";
import type { UpgradeResult } from "./chart-upgrade";

export const LATENCY_METRICS = ["ttftMs", "e2eMs", "itlMs"] as const;
export type LatencyMetric = (typeof LATENCY_METRICS)[number];

export const distributionSchema = z.object({
  count: z.number(),
  min: z.number(),
  max: z.number(),
  p50: z.number(),
  p75: z.number(),
  p90: z.number(),
  p99: z.number(),
  /** Equal-width bins: [start, end) except the last, which includes max */
  bins: z.array(z.object({ start: z.number(), end: z.number(), count: z.number() })),
  /** Cumulative fraction at increasing values, ≤ 201 points */
  cdf: z.array(z.object({ value: z.number(), fraction: z.number() })),
});
export type Distribution = z.infer<typeof distributionSchema>;

/**
 * On a chart drawn from aiperf's records: the records are a sample of the requests aiperf
 * summarised (`records` of `described`), so the chart is of that sample, not of the run.
 */
export const recordsSampleSchema = z.object({ records: z.number(), described: z.number() });

export const distributionPayloadSchema = z.object({
  metrics: z.record(z.string(), distributionSchema.nullable()),
  sample: recordsSampleSchema.optional(),
});

/**
 * A distribution payload of version 1 (written before p75 was kept, or after): one whose every
 * distribution holds its p75 is the current shape; one that lacks it cannot be given it (the
 * values are not in the payload), so the run is recomputed.
 */
export function upgradeDistributionPayload(stored: Record<string, unknown>): UpgradeResult {
  const metrics = (stored.metrics ?? {}) as Record<string, { p75?: unknown } | null>;
  const lacking = Object.entries(metrics).filter(([, d]) => d !== null && typeof d.p75 !== "number");
  if (lacking.length > 0)
    return {
      recompute: `stored before p75 was kept (${lacking.map(([m]) => m).join(", ")}): re-ingest the run to compute it`,
    };
  return { payload: stored };
}

export const overTimePayloadSchema = z.object({
  /** Records in the run; points hold an evenly spaced sample of them when there are more than 2,000 */
  total: z.number(),
  points: timePoints("ttftMs", "e2eMs", "itlMs"),
  sample: recordsSampleSchema.optional(),
});

export const ttftVsInputPayloadSchema = z.object({
  total: z.number(),
  points: z.array(z.object({ inputTokens: z.number(), ttftMs: z.number() })),
  sample: recordsSampleSchema.optional(),
});

export const timelinePayloadSchema = z.object({
  bucketS: z.number(),
  /**
   * Epoch ms of the run's first request (t = 0), which places server-metrics intervals on the
   * request timeline. Added with aggregator version 8; older payloads read as unknown.
   */
  originEpochMs: z.number().nullable().default(null),
  points: z.array(
    z.object({
      tS: z.number(),
      requestsPerS: z.number(),
      outputTokensPerS: z.number(),
      inFlightAvg: z.number(),
      inFlightMax: z.number(),
      errorsPerS: z.number(),
    }),
  ),
  sample: recordsSampleSchema.optional(),
});

export const errorsPayloadSchema = z.object({
  total: z.number(),
  groups: z.array(
    z.object({
      type: z.string(),
      code: z.number().nullable(),
      count: z.number(),
      examples: z.array(z.string()),
      firstAtMs: z.number().nullable(),
    }),
  ),
  /** aiperf's own error_summary, when the summary was uploaded */
  summary: z.array(
    z.object({ type: z.string(), code: z.number().nullable(), message: z.string(), count: z.number() }),
  ),
});

export const agreementRowSchema = z.object({
  metric: z.string(),
  stat: z.string(),
  ours: z.number().nullable(),
  aiperf: z.number().nullable(),
  agrees: z.boolean(),
});
export const agreementPayloadSchema = z.object({
  /** Which summary file(s) were compared (one per trial in multi-run uploads) */
  sources: z.array(z.string()),
  rows: z.array(
    agreementRowSchema.extend({
      source: z.string(),
      /** From a folder whose records are a sample of the summary's requests: differs by design */
      sample: z.boolean().optional(),
    }),
  ),
  /** Differences beyond rounding where the records should match the summary (sample rows excluded) */
  disagreements: z.number(),
  /** Records that hold fewer requests than the summary describes; null or absent when complete */
  sample: z
    .object({
      records: z.number(),
      described: z.number(),
      /** aiperf's own statistics of every request, when one summary was compared (not pooled trials) */
      summary: z
        .object({
          ttftMs: statsSchema.nullable(),
          e2eMs: statsSchema.nullable(),
          itlMs: statsSchema.nullable(),
          inputTokens: statsSchema.nullable(),
          outputTokens: statsSchema.nullable(),
        })
        .nullable(),
    })
    .nullable()
    .optional(),
});
export type AgreementRow = z.infer<typeof agreementRowSchema>;

export const gpuSeriesSchema = z.object({
  id: z.string(),
  label: z.string(),
  points: timePoints("powerW", "utilizationPct", "memoryUsedGb"),
});
export const gpuPayloadSchema = z.object({
  gpus: z.array(gpuSeriesSchema),
  ...nullableNumbers("energyJ", "outputTokens", "energyPerOutputTokenJ"),
  /** Same physical GPU (uuid) seen through several exporters: counted once for energy */
  duplicateGpus: z.number(),
  /** Physical GPUs: series minus the duplicates */
  distinctGpus: z.number(),
  /** Whether any sample falls in the profiling window; null without per-request records */
  overlapsWindow: z.boolean().nullable(),
  /**
   * The profiling window on the charts' axis (s from the first request) and how many of the
   * telemetry samples lie outside it: the charts draw only the window. Null without per-request
   * records.
   */
  window: z
    .object({
      fromS: z.number(),
      toS: z.number(),
      samples: z.number(),
      outside: z.number(),
      /** The first and last telemetry sample, same axis; null when no sample has a time */
      firstS: z.number().nullable(),
      lastS: z.number().nullable(),
    })
    .nullable(),
});
export type GpuPayload = z.infer<typeof gpuPayloadSchema>;

/**
 * A GPU payload of version 1 (stored before the profiling window was kept). Without per-request
 * records it had no window to keep (`overlapsWindow` null): the window is null, as an ingest writes
 * it now. With records, nothing in it says which samples lie in the window, and drawn whole it
 * would show telemetry from before and after the benchmark as part of it: recomputed.
 */
export function upgradeGpuPayload(stored: Record<string, unknown>): UpgradeResult {
  const window = stored.window as Record<string, unknown> | null | undefined;
  if (window && !("firstS" in window)) {
    // Kept with the window but before the samples' span was: the span of the points it holds
    // (each point starts its group of samples, so the last may be a group short of the last sample).
    let first: number | null = null;
    let last: number | null = null;
    for (const g of (stored.gpus ?? []) as Array<{ points: Array<{ tS: number }> }>) {
      if (g.points.length === 0) continue;
      first = Math.min(first ?? Infinity, g.points[0].tS);
      last = Math.max(last ?? -Infinity, g.points[g.points.length - 1].tS);
    }
    return { payload: { ...stored, window: { ...window, firstS: first, lastS: last } } };
  }
  if (window !== undefined) return { payload: stored };
  if (stored.overlapsWindow === null) return { payload: { ...stored, window: null } };
  return {
    recompute:
      "stored before the profiling window was kept, so its samples before and after the benchmark cannot be left out: re-ingest the run to draw only the window",
  };
}

/**
 * aiperf's own GPU statistics from its summary's `telemetry_data` (no per-sample export uploaded):
 * one row per physical GPU, each figure aiperf's over its telemetry window; null where not written.
 */
export const gpuSummaryPayloadSchema = z.object({
  gpus: z.array(
    z.object({
      label: z.string(),
      model: z.string().nullable(),
      /** Utilisation or memory used above 0 at some time; null when neither was written */
      busy: z.boolean().nullable(),
      ...nullableNumbers(
        "powerAvgW",
        "powerMaxW",
        "utilizationAvgPct",
        "utilizationMaxPct",
        "memoryUsedMaxGb",
        /** max − min of the GPU's energy counter over the telemetry window (J) */
        "energyJ",
      ),
    }),
  ),
});
export type GpuSummaryPayload = z.infer<typeof gpuSummaryPayloadSchema>;

export const trialsPayloadSchema = z.object({
  trials: z.array(z.object({ name: z.string(), records: z.number() })),
});

/** aiperf's own per-timeslice summary (`--slice-duration`), in slice order */
export const timeslicesPayloadSchema = z.object({
  sliceDurationS: z.number().nullable(),
  slices: z.array(
    z.object({
      index: z.number(),
      complete: z.boolean(),
      ...nullableNumbers(
        "ttftAvgMs",
        "ttftP99Ms",
        "e2eAvgMs",
        "e2eP99Ms",
        "requestThroughputPerS",
        "outputTokenThroughputPerS",
      ),
    }),
  ),
});
