/**
 * The KV router's own routing decisions, read from its log, beside what the engines delivered
 * (docs/metrics.md §Predicted vs delivered per worker): stored at ingest, served by
 * /api/runs/{id}/charts/router-log.
 */
import { z } from "zod";

const num = z.number().nullable();

/** One worker (instance id and DP rank) the router chose, with what it predicted for it. */
export const routerLogWorkerSchema = z.object({
  workerId: z.string(),
  dpRank: z.number().nullable(),
  /** prefill or decode, from the router's `Selected worker` lines; null when the log has none */
  workerType: z.string().nullable(),
  requests: z.number(),
  overlapBlocks: z.number(),
  totalBlocks: z.number(),
  /** Σ overlap blocks / Σ prompt blocks of the requests routed to it */
  predicted: num,
  /** The scrape endpoint of this worker, where the data says which one it is */
  endpoint: z.string().nullable(),
  delivered: num,
  gapPoints: num,
});

/**
 * The workers past the ones listed (`ROUTER_LOG_MAX_WORKERS`, those with most routed requests
 * first), pooled: how many, and what the router predicted for them together.
 */
export const routerLogOtherWorkersSchema = z.object({
  count: z.number(),
  requests: z.number(),
  overlapBlocks: z.number(),
  totalBlocks: z.number(),
  /** Σ overlap blocks / Σ prompt blocks of the requests routed to them */
  predicted: num,
});

export const routerLogPointSchema = z.object({
  /** Seconds from `startEpochMs` */
  t: z.number(),
  predicted: num,
  delivered: num,
  /** Routing decisions in the interval */
  requests: z.number(),
});

export const routerLogPayloadSchema = z.object({
  /** The log files read and the line they were read from */
  files: z.array(z.string()),
  source: z.string(),
  /** Decisions counted (in the scrapes' window when there are scrapes) */
  decisions: z.number(),
  /** Decisions left out because they fall outside the scrapes' window (warmup, after the run) */
  outsideWindow: z.number(),
  /** Decisions whose line has no time: counted, but on no interval */
  untimed: z.number(),
  /** Decode workers of a disaggregated deployment: routed, but their cache is not what they computed */
  decodeDecisions: z.number(),
  /** The run's predicted hit rate: Σ overlap blocks / Σ prompt blocks over the counted decisions */
  predicted: num,
  /** Σ cached / Σ prompt tokens of the prefill-side engines (their own counters) */
  delivered: num,
  deliveredMethod: z.string().nullable(),
  gapPoints: num,
  /** The workers with most routed requests, at most `ROUTER_LOG_MAX_WORKERS` of them */
  workers: z.array(routerLogWorkerSchema),
  /** Every other worker of the log in one row; null (absent in older payloads) when none is left out */
  otherWorkers: routerLogOtherWorkersSchema.nullable().optional(),
  /** How workers were matched to scrape endpoints, or why they could not be */
  mapping: z.string(),
  /** What is absent and how to get it; null when both sides are present */
  missing: z.string().nullable(),
  /** Seconds per point of `points` */
  stepS: num,
  startEpochMs: num,
  points: z.array(routerLogPointSchema),
});

export type RouterLogWorker = z.infer<typeof routerLogWorkerSchema>;
export type RouterLogOtherWorkers = z.infer<typeof routerLogOtherWorkersSchema>;
export type RouterLogPoint = z.infer<typeof routerLogPointSchema>;
export type RouterLogPayload = z.infer<typeof routerLogPayloadSchema>;

/**
 * Workers a router-log payload lists one by one; the rest are one "N other workers" row, so a
 * log naming 200,000 workers is a payload of kilobytes, not of tens of megabytes.
 */
export const ROUTER_LOG_MAX_WORKERS = 50;

/** How to get the router's per-request decisions into the frontend's log: one wording wherever it is missing. */
export const ROUTER_LOG_HOW =
  "start the frontend with DYN_LOG=debug (or DYN_LOG=info,dynamo_llm::kv_router=debug) so it writes a [ROUTING] Best line per request";
