/**
 * The KV router's own routing decisions, read from its log, beside what the engines delivered
 * (docs/metrics.md §Predicted vs delivered per worker): stored at ingest, served by
 * /api/runs/{id}/charts/router-log.
 */
import { z } from "zod";
import type { UpgradeResult } from "./chart-upgrade";

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
  /** Every other worker of the log in one row; null when none is left out */
  otherWorkers: routerLogOtherWorkersSchema.nullable(),
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

interface WorkerCounts {
  requests: number;
  overlapBlocks: number;
  totalBlocks: number;
}

/**
 * Bounding a router log's per-worker list (docs/metrics.md §Predicted vs delivered per worker):
 * the first `max` workers (give them sorted, most routed requests first) one by one and the rest
 * pooled, so a chart payload and the table drawn from it stay small whatever the log names.
 * `other` is null when none is left out.
 */
export function boundWorkers<W extends WorkerCounts>(
  sorted: readonly W[],
  max = ROUTER_LOG_MAX_WORKERS,
): { shown: W[]; other: RouterLogOtherWorkers | null } {
  if (sorted.length <= max) return { shown: [...sorted], other: null };
  const other = { count: 0, requests: 0, overlapBlocks: 0, totalBlocks: 0 };
  for (let i = max; i < sorted.length; i++) {
    other.count++;
    other.requests += sorted[i].requests;
    other.overlapBlocks += sorted[i].overlapBlocks;
    other.totalBlocks += sorted[i].totalBlocks;
  }
  const predicted =
    other.totalBlocks > 0 ? Math.min(1, Math.max(0, other.overlapBlocks / other.totalBlocks)) : null;
  return { shown: sorted.slice(0, max), other: { ...other, predicted } };
}

/**
 * A router-log payload of version 1: one stored before the list was bounded lists every worker,
 * most routed requests first, so it is bounded as the ingest bounds it now.
 */
export function upgradeRouterLogPayload(stored: Record<string, unknown>): UpgradeResult {
  if ("otherWorkers" in stored) return { payload: stored };
  const { shown, other } = boundWorkers(stored.workers as RouterLogWorker[]);
  return { payload: { ...stored, workers: shown, otherWorkers: other } };
}
