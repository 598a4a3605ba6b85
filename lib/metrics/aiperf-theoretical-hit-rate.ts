import type { SummaryMetric } from "@/lib/formats/aiperf-summary";

/**
 * The prefix-cache hit rate aiperf's dataset would give with an unbounded cache
 * (`theoretical_prefix_cache_hit` in the summary), as a 0..1 fraction: Σ / count when aiperf
 * gives both (schema 1.1+), else the average, which older files state in percent.
 * Shown beside the measured server-side rate: a gap between them is what users look for.
 */
export function theoreticalCacheHitRate(metric: SummaryMetric | undefined): number | null {
  if (!metric) return null;
  if (metric.count !== undefined && metric.count > 0 && metric.sum !== undefined) {
    // aiperf's accumulator (post_processors/theoretical_prefix_cache_accumulator.py) writes the
    // hit blocks as `sum` and all blocks as `count`, so sum / count is a fraction even when the
    // unit is `%` (that is the avg's unit). A ratio above 1 is a sum of per-request percents.
    const rate = metric.sum / metric.count;
    if (!Number.isFinite(rate)) return null;
    return rate > 1 ? rate / 100 : rate;
  }
  if (metric.avg === undefined || !Number.isFinite(metric.avg)) return null;
  // A per-request hit is 0/1 or a fraction; a mean above 1 can only be percent.
  return metric.unit === "%" || metric.avg > 1 ? metric.avg / 100 : metric.avg;
}
