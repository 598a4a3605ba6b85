import type { SummaryMetric } from "@/lib/formats/aiperf-summary";

/**
 * The prefix-cache hit rate aiperf's dataset would give with an unbounded cache
 * (`theoretical_prefix_cache_hit` in the summary), as a 0..1 fraction: Σ / count when aiperf
 * gives both (schema 1.1+), else the average, which older files state in percent.
 * Shown beside the measured server-side rate: a gap between them is what users look for.
 */
export function theoreticalCacheHitRate(metric: SummaryMetric | undefined): number | null {
  if (!metric) return null;
  let rate: number | null = null;
  if (metric.count !== undefined && metric.count > 0 && metric.sum !== undefined)
    rate = metric.sum / metric.count;
  else if (metric.avg !== undefined) rate = metric.avg;
  if (rate === null || !Number.isFinite(rate)) return null;
  // A per-request hit is 0/1 or a fraction; a mean above 1 can only be percent.
  if (metric.unit === "%" || rate > 1) rate /= 100;
  return rate;
}
