/**
 * Bounding a router log's per-worker list (docs/metrics.md §Predicted vs delivered per worker):
 * the workers with most routed requests one by one, every other worker pooled into one row, so
 * a chart payload and the table drawn from it stay small whatever the log names.
 */
import { ROUTER_LOG_MAX_WORKERS, type RouterLogOtherWorkers } from "@/lib/api/router-log";
import { clampFraction } from "./server-metrics/select";

interface WorkerCounts {
  requests: number;
  overlapBlocks: number;
  totalBlocks: number;
}

/**
 * The first `max` workers (give them sorted, most routed requests first) and the rest pooled;
 * `other` is null when none is left out. An `other` row already in the input is added to the pool.
 */
export function boundWorkers<W extends WorkerCounts>(
  sorted: readonly W[],
  max = ROUTER_LOG_MAX_WORKERS,
  earlier: RouterLogOtherWorkers | null = null,
): { shown: W[]; other: RouterLogOtherWorkers | null } {
  if (sorted.length <= max) return { shown: [...sorted], other: earlier };
  const other = { count: 0, requests: 0, overlapBlocks: 0, totalBlocks: 0 };
  if (earlier) {
    other.count += earlier.count;
    other.requests += earlier.requests;
    other.overlapBlocks += earlier.overlapBlocks;
    other.totalBlocks += earlier.totalBlocks;
  }
  for (let i = max; i < sorted.length; i++) {
    other.count++;
    other.requests += sorted[i].requests;
    other.overlapBlocks += sorted[i].overlapBlocks;
    other.totalBlocks += sorted[i].totalBlocks;
  }
  return {
    shown: sorted.slice(0, max),
    other: {
      ...other,
      predicted: other.totalBlocks > 0 ? clampFraction(other.overlapBlocks / other.totalBlocks) : null,
    },
  };
}
