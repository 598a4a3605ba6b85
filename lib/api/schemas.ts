/**
 * Response and request shapes of the HTTP API (README.md §HTTP API). The browser and the route
 * handlers import the same schemas; types come from them.
 */
import { z } from "zod";
import { nullableNumbers } from "./fields";
import { KINDS } from "./kinds";
import { factsPatchSchema, runFactsSchema } from "./run-facts";

/** Run and file ids are base64url; anything else is rejected before it reaches a query. */
export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** Labels a user puts on a run: trimmed, non-empty, at most 64 characters, at most 32 of them. */
export const labelsSchema = z.array(z.string().trim().min(1).max(64)).max(32);

export const statsSchema = z.object({
  count: z.number(),
  mean: z.number(),
  /**
   * min, max, p90 and p95 are absent only where a producer's own run-level summary did not write
   * them (vLLM and SGLang write mean, median and p99 by default); statistics we compute have all.
   */
  min: z.number().optional(),
  max: z.number().optional(),
  p50: z.number(),
  /** Absent on runs ingested before p75 was kept, and where aiperf's summary did not write it */
  p75: z.number().optional(),
  p90: z.number().optional(),
  p95: z.number().optional(),
  p99: z.number(),
});

export const fileWarningSchema = z.object({ line: z.number().optional(), message: z.string() });

export const runStatusSchema = z.enum(["ingesting", "ready", "failed"]);

export const runFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(KINDS),
  format: z.string(),
  bytes: z.number(),
  sha256: z.string(),
  records: z.number(),
  skipped: z.number(),
  warnings: z.array(fileWarningSchema),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export const collectorsSchema = z.object({
  returnPerfMetrics: z.boolean().nullable(),
  enableIterPerfStats: z.boolean().nullable(),
  publishKvEvents: z.boolean().nullable(),
});

export const requestsBlockSchema = z.object({
  source: z.string(),
  count: z.number(),
  errorCount: z.number(),
  /** null = a warm-up ran (the config says so, bounded by time only) but its size is unknown */
  warmupCount: z.number().nullable(),
  /**
   * Where warmupCount comes from: warm-up records, or aiperf's input_config when it wrote none;
   * "tool": an imported benchmark tool that does not write its warm-up (count unknown)
   */
  warmupSource: z.enum(["records", "config", "tool"]).optional(),
  /** The configured warm-up duration (s) when the config bounds it by time */
  warmupDurationS: z.number().nullable().optional(),
  cancelledCount: z.number().optional(),
  durationS: z.number().nullable(),
  ttftMs: statsSchema.nullable(),
  e2eMs: statsSchema.nullable(),
  itlMs: statsSchema.nullable(),
  inputTokens: statsSchema.nullable(),
  outputTokens: statsSchema.nullable(),
  requestThroughputPerS: z.number().nullable().optional(),
  outputTokenThroughputPerS: z.number().nullable().optional(),
  /** Σ output tokens of successful profiling requests as the client counted them (aiperf's total_osl) */
  outputTokensTotal: z.number().nullable().optional(),
});

export const segmentSchema = z.object({
  name: z.string(),
  label: z.string(),
  count: z.number(),
  ...nullableNumbers("meanMs", "p50Ms", "p90Ms", "p99Ms"),
  /** Absent on runs ingested before p75 was kept */
  p75Ms: z.number().nullable().optional(),
});

export const timeBreakdownBlockSchema = z.object({
  mode: z.enum(["aggregated", "disaggregated"]),
  requestCount: z.number(),
  segments: z.array(segmentSchema),
  kvCacheHitRate: z.number().nullable(),
  kvTransfer: z
    .object({ count: z.number(), bytes: statsSchema.nullable(), bandwidthGBps: statsSchema.nullable() })
    .nullable(),
  /**
   * Per-request latency from the perf-metrics stamps (docs/metrics.md §Request latency from perf
   * metrics); null = no request recorded it. Absent on runs ingested before it was kept.
   */
  latency: z
    .object({
      ttftMs: statsSchema.nullable(),
      e2eMs: statsSchema.nullable(),
      tpotMs: statsSchema.nullable(),
      /** Requests whose output-token count is known (from their generation steps) */
      tokensKnown: z.number(),
    })
    .optional(),
});

export const serverMetricsBlockSchema = z.object({
  backend: z.string().nullable(),
  cache: z.object({
    ...nullableNumbers("gpuHitRate", "cpuHitRate", "overallHitRate"),
    method: z.string().nullable(),
  }),
  kvCache: z.object({
    ...nullableNumbers("gpuTotalTokens", "gpuUsageAvg", "gpuUsageMax"),
  }),
  kvOffload: z.object({
    ...nullableNumbers(
      "bytesGpuToCpu",
      "bytesCpuToGpu",
      "bandwidthGpuToCpuBytesPerSecond",
      "bandwidthCpuToGpuBytesPerSecond",
    ),
  }),
  tokens: z.object({
    ...nullableNumbers("promptTotal", "cachedTotal", "generationTotal"),
  }),
});

export const endpointRoleSchema = z.enum(["prefill", "decode", "combined", "frontend", "router"]);

export const endpointRowSchema = z.object({
  endpoint: z.string(),
  role: endpointRoleSchema,
  ...nullableNumbers(
    "cacheHitRate",
    "promptTokens",
    "cachedTokens",
    "generationTokens",
    "kvCapacityTokens",
    "kvUsageAvg",
    "offloadBytesGpuToCpu",
    "offloadBytesCpuToGpu",
    "offloadBandwidthGpuToCpuBytesPerSecond",
    "offloadBandwidthCpuToGpuBytesPerSecond",
    "requestCount",
    "kvCacheHitRate",
  ),
});

/** The computed part of a run summary: what ingest produces and stores. */
export const summaryBlocksSchema = z.object({
  collectors: collectorsSchema,
  requests: requestsBlockSchema.nullable(),
  timeBreakdown: timeBreakdownBlockSchema.nullable(),
  serverMetrics: serverMetricsBlockSchema.nullable(),
  endpoints: z.array(endpointRowSchema),
  /** Facts about the run shown in its header (model, endpoint type, concurrency, tool versions). */
  info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  warnings: z.array(z.string()),
  /**
   * When the ingest that wrote this summary and the run's charts committed (epoch ms); with the
   * aggregator version it versions the chart URLs. Absent on runs ingested before it was stored.
   */
  ingestedAt: z.number().optional(),
});

/** The catalog fields a run list item and a run summary both begin with. */
export const runHeadSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  labels: z.array(z.string()),
  status: runStatusSchema,
});

export const runSummarySchema = summaryBlocksSchema.extend({
  ...runHeadSchema.shape,
  aggregatorVersion: z.number(),
  files: z.array(runFileSchema),
  error: z.string().nullable(),
  /** What was benchmarked, each fact with its source (docs/metrics.md §Run facts) */
  facts: runFactsSchema,
});

export const runListItemSchema = runHeadSchema.extend({
  kinds: z.array(z.string()),
  backend: z.string().nullable(),
  requestCount: z.number().nullable(),
});

export const runListSchema = z.object({
  runs: z.array(runListItemSchema),
  nextCursor: z.string().nullable(),
});

export const uploadResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: runStatusSchema,
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(KINDS),
      records: z.number(),
      skipped: z.number(),
      warnings: z.array(fileWarningSchema),
    }),
  ),
  warnings: z.array(z.string()),
  /** An upload holding several run folders made one run per folder and this sweep of them */
  sweep: z.object({ id: z.string(), url: z.string() }).optional(),
  /** Every run the upload made, in folder order, when it made a sweep (the fields above are the first's) */
  runs: z
    .array(z.object({ id: z.string(), url: z.string(), folder: z.string(), status: runStatusSchema }))
    .optional(),
});

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

export const listQuerySchema = z.object({
  q: z.string().max(200).optional(),
  label: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

export const patchRunSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  labels: labelsSchema.optional(),
  /** Sets or corrects facts; null for a fact clears its edit */
  facts: factsPatchSchema.optional(),
});

export type Stats = z.infer<typeof statsSchema>;
export type RunFile = z.infer<typeof runFileSchema>;
export type Collectors = z.infer<typeof collectorsSchema>;
export type RequestsBlock = z.infer<typeof requestsBlockSchema>;
export type TimeBreakdownBlock = z.infer<typeof timeBreakdownBlockSchema>;
export type ServerMetricsBlock = z.infer<typeof serverMetricsBlockSchema>;
export type EndpointRole = z.infer<typeof endpointRoleSchema>;
export type EndpointRow = z.infer<typeof endpointRowSchema>;
export type SummaryBlocks = z.infer<typeof summaryBlocksSchema>;
export type RunHead = z.infer<typeof runHeadSchema>;
export type RunSummary = z.infer<typeof runSummarySchema>;
export type RunListItem = z.infer<typeof runListItemSchema>;
export type RunList = z.infer<typeof runListSchema>;
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
