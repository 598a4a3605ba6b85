/**
 * Response and request shapes of the HTTP API (docs/http-api.md). The browser and the route
 * handlers import the same schemas; types come from them.
 */
import { z } from "zod";
import { nullableNumbers } from "./fields";
import { KINDS } from "./kinds";
import { seriesFieldsSchema } from "./series-fields";
import { derivedThroughputSchema, throughputInputsSchema } from "./derived-throughput";
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
  /** Absent where a producer's summary did not write it (as min, max, p90 and p95) */
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

/**
 * Collectors on only by what a flag implies (Dynamo's older `--publish-events-and-metrics`, or its
 * environment variable `DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS`),
 * each with its evidence, "inferred from …" (docs/metrics.md §Collectors).
 */
export const collectorsInferredFromSchema = z
  .object({ returnPerfMetrics: z.string(), enableIterPerfStats: z.string(), publishKvEvents: z.string() })
  .partial();

export const requestsBlockSchema = z.object({
  source: z.string(),
  count: z.number(),
  errorCount: z.number(),
  /** null = a warm-up ran (the config says so, bounded by time only) but its size is unknown */
  warmupCount: z.number().nullable(),
  /**
   * Where warmupCount comes from: warm-up records, aiperf's summary `warmup_metrics` (schema 1.4+),
   * outputs.json's `warmup` list (schema 1.1), its log's warm-up phase, or its input_config when it wrote none of these;
   * "tool": an imported benchmark tool that does not write its warm-up (count unknown)
   */
  warmupSource: z.enum(["records", "summary", "outputs", "log", "config", "tool"]).optional(),
  /** Warm-up requests that failed, where aiperf's summary or log says; absent when unknown */
  warmupErrorCount: z.number().nullable().optional(),
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
  /**
   * The records uploaded are a sample of the requests aiperf summarised (`records` profiling
   * records of `described`): every figure of this block is then aiperf's summary's, and the charts
   * drawn from the records are of the sample. Absent when the records are the whole run.
   */
  recordsSample: z.object({ records: z.number(), described: z.number() }).optional(),
  /**
   * "aiperf summary": duration, requests/s and output tokens/s are aiperf's own (its benchmark
   * window); absent when they are computed from the records (first request to last response).
   */
  throughputSource: z.literal("aiperf summary").optional(),
});

export const segmentSchema = z.object({
  name: z.string(),
  label: z.string(),
  count: z.number(),
  ...nullableNumbers("meanMs", "p50Ms", "p75Ms", "p90Ms", "p95Ms", "p99Ms"),
});

export const timeBreakdownBlockSchema = z.object({
  mode: z.enum(["aggregated", "disaggregated"]),
  requestCount: z.number(),
  segments: z.array(segmentSchema),
  kvCacheHitRate: z.number().nullable(),
  /**
   * Blocks the hit rate's records looked up (Σ reused + missed); 0 = KV metrics at 0, so the
   * rate is null for "0 lookups", not 0 %. Null: no record looked up (or a summary stored before
   * it was kept, lib/runs/stored-summary.ts, whose run says to re-ingest).
   */
  kvBlockLookups: z.number().nullable(),
  kvTransfer: z
    .object({ count: z.number(), bytes: statsSchema.nullable(), bandwidthGBps: statsSchema.nullable() })
    .nullable(),
  /**
   * Per-request latency from the perf-metrics stamps (docs/metrics.md §Request latency from perf
   * metrics), each statistic null when no request recorded it. Null: a summary stored before it
   * was kept (lib/runs/stored-summary.ts), whose run says to re-ingest.
   */
  latency: z
    .object({
      ttftMs: statsSchema.nullable(),
      e2eMs: statsSchema.nullable(),
      tpotMs: statsSchema.nullable(),
      /** tok/s per user of each request, 1000 ÷ its TPOT (docs/metrics.md §Per-user throughput) */
      tokPerUser: statsSchema.nullable(),
      /** Requests whose output-token count is known (from their generation steps or iterations) */
      tokensKnown: z.number(),
      /**
       * Of those, requests counted from the generation record's first_iter/last_iter (no step
       * metrics)
       */
      tokensFromIterations: z.number(),
      /**
       * Requests whose first response left after their last token (not streamed): E2E = TTFT and
       * no TPOT
       */
      oneResponse: z.number(),
    })
    .nullable(),
});

export const serverMetricsBlockSchema = z.object({
  backend: z.string().nullable(),
  /**
   * Hit rates, one definition per label (docs/metrics.md §Cache hit rate): GPU, CPU/host and
   * external are each that tier's served tokens over all prompt tokens looked up, overall their
   * sum. A summary stored before the per-tier fields were kept reads them as null
   * (lib/runs/stored-summary.ts), and its run says to re-ingest.
   */
  cache: z.object({
    ...nullableNumbers("gpuHitRate", "cpuHitRate", "overallHitRate"),
    method: z.string().nullable(),
    externalHitRate: z.number().nullable(),
    /** Prompt tokens the exported counters looked up, 0 included; null = no counter exported */
    lookupTokens: z.number().nullable(),
    /** Tokens served per tier; null = the tier is not exported */
    servedTokens: z.object({
      gpu: z.number().nullable(),
      host: z.number().nullable(),
      external: z.number().nullable(),
    }),
    /** Mean of the engines' hit-rate gauges (SGLang cache_hit_rate, …), whatever the counters say */
    gaugeHitRateAvg: z.number().nullable(),
    /** SGLang: 1 − uncached / prompt tokens from its prompt histograms */
    histogramHitRate: z.number().nullable(),
    /** LMCache's own hit rate (num_hit_tokens / num_requested_tokens) */
    lmcacheHitRate: z.number().nullable(),
    /** Counter families the rates were read from */
    countersExported: z.array(z.string()),
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
  /** Absent or empty: no collector is on by a flag's implication alone */
  collectorsInferredFrom: collectorsInferredFromSchema.optional(),
  requests: requestsBlockSchema.nullable(),
  timeBreakdown: timeBreakdownBlockSchema.nullable(),
  serverMetrics: serverMetricsBlockSchema.nullable(),
  endpoints: z.array(endpointRowSchema),
  /** Facts about the run shown in its header (model, endpoint type, concurrency, tool versions). */
  info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  warnings: z.array(z.string()),
  /**
   * The throughput derived figures are made of (docs/metrics.md §Derived throughput); null when
   * the ingest kept none (they are then read from the requests block).
   */
  throughput: throughputInputsSchema.nullable(),
});

/** The catalog fields a run list item and a run summary both begin with. */
export const runHeadSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  labels: z.array(z.string()),
  status: runStatusSchema,
});

/**
 * When a run's summary and its drill-down (request lists, timeline, slowest requests) were
 * stored, ISO; null: not yet (docs/http-api.md). A ready run whose drill-down is null is
 * still being built: its summary and charts are final, its drill-down views wait.
 */
export const readinessSchema = z.object({
  summaryReadyAt: z.string().nullable(),
  drilldownReadyAt: z.string().nullable(),
});

export const runSummarySchema = summaryBlocksSchema.extend({
  ...runHeadSchema.shape,
  ...readinessSchema.shape,
  aggregatorVersion: z.number(),
  /**
   * When the ingest that wrote this summary and the run's charts committed (epoch ms); with the
   * aggregator version it versions the chart URLs.
   */
  ingestedAt: z.number(),
  /**
   * What the stored summary lacks because an older Runlens did not keep it, and how to get it
   * (re-ingest); null when it lacks nothing (lib/runs/stored-summary.ts).
   */
  recompute: z.string().nullable(),
  files: z.array(runFileSchema),
  error: z.string().nullable(),
  /** The run's series, commit and branch (docs/metrics.md §Regressions); null outside a series */
  series: z.string().nullable(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  /** The run's order key in its series (a number, version or ISO date); null: its upload time */
  order: z.string().nullable(),
  /** Where the run sits in its series: run `at` (1-based) of `of`; null outside a series or not ready */
  seriesPosition: z.object({ at: z.number(), of: z.number() }).nullable().optional(),
  /** What was benchmarked, each fact with its source (docs/metrics.md §Run facts) */
  facts: runFactsSchema,
  /** Per-GPU and per-user throughput from the throughput and the GPU count fact */
  derived: derivedThroughputSchema,
});

export const runListItemSchema = runHeadSchema.extend({
  ...readinessSchema.shape,
  kinds: z.array(z.string()),
  /** The backend fact (edits included), else the backend the files named */
  backend: z.string().nullable(),
  requestCount: z.number().nullable(),
  /** Run facts the list shows, sorts and filters by (docs/metrics.md §Run facts) */
  model: z.string().nullable(),
  gpuModel: z.string().nullable(),
  gpuCount: z.number().nullable(),
  concurrency: z.number().nullable(),
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
      /** What the analyzer said of the file; `notRead: true`: nothing of it was counted or kept */
      meta: runFileSchema.shape.meta,
    }),
  ),
  warnings: z.array(z.string()),
  ...readinessSchema.shape,
  /** An upload holding several runs made one run each and, when they are one sweep, this sweep of them */
  sweep: z.object({ id: z.string(), url: z.string() }).optional(),
  /** Every run the upload made, in folder or upload order, when it made several (the fields above are the first's) */
  runs: z
    .array(
      z.object({
        id: z.string(),
        url: z.string(),
        folder: z.string(),
        status: runStatusSchema,
        ...readinessSchema.shape,
      }),
    )
    .optional(),
});

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

/** Columns the run list sorts by: upload time (the default, newest first) or a run fact. */
export const RUN_SORTS = ["created", "model", "gpuModel", "gpuCount", "concurrency", "backend"] as const;
export type RunSort = (typeof RUN_SORTS)[number];

export const listQuerySchema = z.object({
  q: z.string().max(200).optional(),
  label: z.string().max(100).optional(),
  /** Facts filters: text ones match a part, case-insensitively; numbers match exactly */
  model: z.string().max(200).optional(),
  gpu: z.string().max(200).optional(),
  backend: z.string().max(100).optional(),
  gpus: z.coerce.number().int().positive().optional(),
  concurrency: z.coerce.number().positive().optional(),
  sort: z.enum(RUN_SORTS).default("created"),
  dir: z.enum(["asc", "desc"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

export const patchRunSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  labels: labelsSchema.optional(),
  ...seriesFieldsSchema.shape,
  /** Sets or corrects facts; null for a fact clears its edit */
  facts: factsPatchSchema.optional(),
});

export type Stats = z.infer<typeof statsSchema>;
export type RunFile = z.infer<typeof runFileSchema>;
export type Collectors = z.infer<typeof collectorsSchema>;
export type CollectorsInferredFrom = z.infer<typeof collectorsInferredFromSchema>;
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
