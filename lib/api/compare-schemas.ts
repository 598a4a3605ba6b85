/**
 * Request and response shapes of GET /api/compare: the compared runs' summaries plus the
 * deltas against the baseline, so the page and the handler agree on one schema.
 */
import { z } from "zod";
import { nullableNumbers } from "./fields";
import { endpointRoleSchema, runSummarySchema } from "@/lib/api/schemas";
import { allowDifferentSchema, comparabilityReportSchema } from "./comparability-schema";
import { metricVerdictSchema } from "./verdict-schema";

export const MAX_COMPARED_RUNS = 8;

/** The statistic a comparison reads from every latency distribution. */
export const COMPARE_STATS = ["mean", "p50", "p75", "p90", "p95", "p99"] as const;
export type CompareStat = (typeof COMPARE_STATS)[number];

/** A yes/no query flag: `1`/`true` on, `0`/`false` (or absent) off. */
export const queryFlagSchema = z
  .enum(["1", "true", "0", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");

export const compareQuerySchema = z.object({
  runs: z
    .string()
    .max(1000)
    .transform((s) => [
      ...new Set(
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().regex(/^[A-Za-z0-9_-]{8,64}$/))
        .min(1)
        .max(MAX_COMPARED_RUNS),
    ),
  baseline: z.string().max(64).optional(),
  stat: z.enum(COMPARE_STATS).default("p50"),
  /** Noise-aware verdicts against `last:N` of each run's series instead of the baseline run */
  noise: z
    .string()
    .regex(/^last:([1-9]\d?)$/)
    .optional(),
  thresholds: z.string().max(1000).optional(),
  /** Give verdicts between runs that differ in what was benchmarked (docs/metrics.md §Comparable runs) */
  /** Differences accepted by name (`model,gpu`), or all (`1`): docs/metrics.md §Comparable runs */
  allowDifferent: allowDifferentSchema,
});

const verdictSchema = z.enum(["better", "worse", "same", "neutral", "missing"]);

export const deltaRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** The full definition behind a short label (a segment's sentence), for the label's hover */
  description: z.string().optional(),
  group: z.string(),
  unit: z.string(),
  direction: z.enum(["lower", "higher", "neutral"]),
  baseline: z.number().nullable(),
  cells: z.array(
    z.object({
      runId: z.string(),
      ...nullableNumbers("value", "absolute", "percent"),
      verdict: verdictSchema,
      /** The noise-aware verdict of this run's value (docs/metrics.md §Regressions), when one is given */
      noise: metricVerdictSchema.optional(),
    }),
  ),
});

export const collectorMismatchSchema = z.object({
  collector: z.enum(["returnPerfMetrics", "enableIterPerfStats", "publishKvEvents"]),
  flag: z.string(),
  onRunIds: z.array(z.string()),
  offRunIds: z.array(z.string()),
  unknownRunIds: z.array(z.string()),
  kind: z.enum(["differs", "unknown"]),
});

/** The doctor's report on each compared run against the baseline, and the differences accepted. */
export const comparabilitySchema = z.object({
  /** The accepted differences as the URL writes them: "1" for all, names, or "" for none */
  accepted: z.string(),
  runs: z.array(comparabilityReportSchema.extend({ runId: z.string() })),
});

const hitRateRowSchema = z.object({
  key: z.string(),
  role: endpointRoleSchema,
  values: z.record(z.string(), z.number().nullable()),
});

export const compareResponseSchema = z.object({
  baseline: z.string(),
  stat: z.enum(COMPARE_STATS),
  runs: z.array(runSummarySchema),
  /** Requested ids that are unknown (or not ready) */
  missing: z.array(z.string()),
  /** Chart payload keys stored per run, for the overlays (fetched from /api/runs/{id}/charts/{key}) */
  chartKeys: z.record(z.string(), z.array(z.string())),
  rows: z.array(deltaRowSchema),
  /** Names of the metrics no compared run has: left out of the rows and charts */
  absent: z.array(z.string()),
  collectorMismatches: z.array(collectorMismatchSchema),
  /** Each run's comparability with the baseline: "not comparable" runs get no verdicts unless accepted */
  comparability: comparabilitySchema.optional(),
  hitRates: z.object({ byEndpoint: z.array(hitRateRowSchema), byRole: z.array(hitRateRowSchema) }),
  /** What the noise-aware verdicts judge against, and per run why it has none */
  noise: z.object({ baseline: z.string(), notes: z.record(z.string(), z.string()) }).optional(),
});

export type CompareQuery = z.infer<typeof compareQuerySchema>;
export type CompareResponse = z.infer<typeof compareResponseSchema>;
export type DeltaRowDto = z.infer<typeof deltaRowSchema>;
export type Comparability = z.infer<typeof comparabilitySchema>;
