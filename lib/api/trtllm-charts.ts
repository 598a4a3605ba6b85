/**
 * Shapes of the TensorRT-LLM chart payloads (stored at ingest under `trtllm-*` keys) and of the
 * drill-down routes. The analyzer writes them and the breakdown view validates them with these.
 */
import { z } from "zod";
import { nullableNumbers, nullableStrings, timePoints } from "./fields";
import { statsSchema } from "@/lib/api/schemas";
import type { UpgradeResult } from "./chart-upgrade";

export const STATISTICS = ["mean", "p50", "p75", "p90", "p99"] as const;
export type Statistic = (typeof STATISTICS)[number];

export const segmentsPayloadSchema = z.object({
  mode: z.enum(["aggregated", "disaggregated"]),
  requestCount: z.number(),
  segments: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      /** Requests where the segment was recorded */
      count: z.number(),
      notRecorded: z.number(),
      /** More negative than clock skew explains; left out and warned about */
      excluded: z.number(),
      /** Small negatives (clock skew) clamped to 0 and counted as recorded */
      clamped: z.number(),
      ...nullableNumbers("meanMs", "p50Ms", "p75Ms", "p90Ms", "p99Ms"),
    }),
  ),
});
export type SegmentsPayload = z.infer<typeof segmentsPayloadSchema>;

/**
 * A segments payload of version 1: the current shape when every segment says its clamped count
 * and p75; one stored before they were kept cannot be given them (the request rows are not in
 * the payload), so the run is recomputed.
 */
export function upgradeSegmentsPayload(stored: Record<string, unknown>): UpgradeResult {
  const segments = (stored.segments ?? []) as Array<Record<string, unknown>>;
  const lacking = new Set<string>();
  for (const s of segments) {
    if (typeof s.clamped !== "number") lacking.add("clamped counts");
    if (!("p75Ms" in s)) lacking.add("p75");
  }
  if (lacking.size > 0)
    return {
      recompute: `stored before ${[...lacking].join(" and ")} were kept: re-ingest the run to compute them`,
    };
  return { payload: stored };
}

export const segmentSharePayloadSchema = z.object({
  segmentNames: z.array(z.string()),
  bucketMs: z.number(),
  buckets: z.array(
    z.object({
      startMs: z.number(),
      requests: z.number(),
      /** Mean ms per segment over the bucket's requests where recorded; null = not recorded in this bucket */
      meanMs: z.array(z.number().nullable()),
    }),
  ),
});
export type SegmentSharePayload = z.infer<typeof segmentSharePayloadSchema>;

export const histogramPayloadSchema = z.object({
  unit: z.string(),
  count: z.number(),
  stats: statsSchema.nullable(),
  bins: z.array(z.object({ lo: z.number(), hi: z.number(), count: z.number() })),
});
export type HistogramPayload = z.infer<typeof histogramPayloadSchema>;

const hitRowSchema = z.object({
  requests: z.number(),
  reusedBlocks: z.number(),
  missedBlocks: z.number(),
  hitRate: z.number().nullable(),
});

export const kvHitRatePayloadSchema = z.object({
  run: z.number().nullable(),
  byWorker: z.array(
    hitRowSchema.extend({ worker: z.string(), role: z.enum(["prefill", "decode", "combined"]) }),
  ),
  byRole: z.array(hitRowSchema.extend({ role: z.enum(["prefill", "decode", "combined"]) })),
});
export type KvHitRatePayload = z.infer<typeof kvHitRatePayloadSchema>;

export const STEP_METRICS = [
  "preprocessingMs",
  "forwardMs",
  "updateMs",
  "sampleMs",
  "postprocessingMs",
  "gpuForwardMs",
  "gpuSampleMs",
] as const;
export type StepMetric = (typeof STEP_METRICS)[number];

const stepStatsSchema = z.record(z.string(), statsSchema.nullable());

export const stepsPayloadSchema = z.object({
  steps: stepStatsSchema,
  chunks: stepStatsSchema,
  offsets: z.array(
    z.object({ source: z.string(), role: z.string(), offsetS: z.number().nullable(), samples: z.number() }),
  ),
});
export type StepsPayload = z.infer<typeof stepsPayloadSchema>;

export const SAMPLE_SORTS = ["ttft", "e2e", "arrival"] as const;
export type SampleSort = (typeof SAMPLE_SORTS)[number];
/** Which segments the per-request and share charts draw: all of them, or only those tiling TTFT. */
export const SEGMENT_SCOPES = ["all", "ttft"] as const;
export type SegmentScope = (typeof SEGMENT_SCOPES)[number];
/** The value axis of the per-request chart. */
export const VALUE_SCALES = ["linear", "log"] as const;
export type ValueScale = (typeof VALUE_SCALES)[number];

/** A request sample holds at most this many requests: the cap on points per series of every chart route. */
export const MAX_SAMPLE = 2000;

/** Query of GET /api/runs/{id}/trtllm/requests. */
export const sampleQuerySchema = z.object({
  sort: z.enum(SAMPLE_SORTS).default("arrival"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.coerce.number().int().min(1).max(MAX_SAMPLE).default(MAX_SAMPLE),
});

export const requestSampleSchema = z.object({
  mode: z.enum(["aggregated", "disaggregated"]),
  total: z.number(),
  segmentNames: z.array(z.string()),
  requests: z.array(
    z.object({
      /** Position in the run, 0-based: the key its drill-down opens by (`req`), not an id */
      idx: z.number(),
      requestId: z.string().nullable(),
      disaggRequestId: z.string().nullable(),
      ...nullableNumbers("arrivalMs", "ttftMs", "e2eMs"),
      /** ms; null = not recorded; {excludedMs} = left out as too negative */
      segments: z.array(z.union([z.number(), z.null(), z.object({ excludedMs: z.number() })])),
    }),
  ),
});
export type RequestSample = z.infer<typeof requestSampleSchema>;

export const stepEntrySchema = z.object({
  kind: z.enum(["chunk", "step"]),
  iter: z.number().nullable(),
  /** Forward start on the request timeline (ms from the run's first arrival); null when the clock offset is unknown */
  ...nullableNumbers("startMs", "forwardMs", "updateMs", "sampleMs", "gpuForwardMs", "gpuSampleMs"),
});
export type StepEntry = z.infer<typeof stepEntrySchema>;

export const requestDetailSchema = z.object({
  idx: z.number(),
  mode: z.enum(["aggregated", "disaggregated"]),
  ...nullableStrings(
    "requestId",
    "ctxRequestId",
    "disaggRequestId",
    "ctxServer",
    "genServer",
    "ctxWorker",
    "genWorker",
  ),
  ...nullableNumbers("arrivalMs", "ttftMs", "e2eMs"),
  /** Every timestamp, ms from the run's first arrival; null = not recorded */
  times: z.record(z.string(), z.number().nullable()),
  segments: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      startMs: z.number().nullable(),
      value: z.union([z.number(), z.null(), z.object({ excludedMs: z.number() })]),
    }),
  ),
  kv: z.object({
    ...nullableNumbers(
      "totalBlocks",
      "newBlocks",
      "reusedBlocks",
      "missedBlocks",
      "hitRate",
      "transferBytes",
      "transferMs",
      "bandwidthGBps",
    ),
  }),
  speculative: z.object({ acceptedDraftTokens: z.number(), draftTokens: z.number() }).nullable(),
  steps: z.array(stepEntrySchema),
  stepCount: z.number(),
});
export type RequestDetail = z.infer<typeof requestDetailSchema>;

/** The per-request latency metrics of a TensorRT-LLM run, in the order the view offers them. */
export const TRTLLM_LATENCY_METRICS = ["ttftMs", "e2eMs", "tpotMs"] as const;
export type TrtllmLatencyMetric = (typeof TRTLLM_LATENCY_METRICS)[number];

/** Each request's TTFT, E2E and TPOT at its arrival; ≤ 2,000 evenly spaced requests when the run is larger. */
export const trtllmLatencyOverTimePayloadSchema = z.object({
  total: z.number(),
  points: timePoints("ttftMs", "e2eMs", "tpotMs"),
});
export type TrtllmLatencyOverTimePayload = z.infer<typeof trtllmLatencyOverTimePayloadSchema>;

/** Rows per list of the latency view's slowest requests. */
export const TRTLLM_SLOWEST_LIMIT = 10;

const trtllmSlowestRowsSchema = z.array(
  z.object({
    /** The request's position in the run: the id its detail opens by (`/trtllm/requests/{idx}`, the timeline's `req`) */
    idx: z.number().int(),
    /** TensorRT-LLM's request_id, as the request's drill-down carries it */
    requestId: z.string().nullable(),
    /** The disagg server's request id, when the records carry one */
    disaggRequestId: z.string().nullable(),
    ...nullableNumbers("startS", "ttftMs", "e2eMs", "tpotMs", "outputTokens"),
  }),
);

/**
 * The latency view's slowest requests of a TensorRT-LLM run: per metric, the requests with the
 * largest server TTFT, E2E or TPOT (docs/metrics.md §Request latency from perf metrics), largest
 * first, ties in arrival order; `counts` are the requests that recorded each metric.
 */
export const trtllmSlowestPayloadSchema = z.object({
  total: z.number(),
  limit: z.number(),
  counts: z.object({ ttftMs: z.number(), e2eMs: z.number(), tpotMs: z.number() }),
  lists: z.object({
    ttftMs: trtllmSlowestRowsSchema,
    e2eMs: trtllmSlowestRowsSchema,
    tpotMs: trtllmSlowestRowsSchema,
  }),
});
export type TrtllmSlowestPayload = z.infer<typeof trtllmSlowestPayloadSchema>;
export type TrtllmSlowestRow = TrtllmSlowestPayload["lists"]["ttftMs"][number];
