import type { SummaryMetric } from "@/lib/formats/aiperf-summary";

/**
 * The prefix-cache hit rate aiperf's dataset would give with an unbounded cache
 * (`theoretical_prefix_cache_hit` in the summary), as a 0..1 fraction (docs/metrics.md
 * §Theoretical hit rate). aiperf's accumulator sums each profiled turn's hit blocks and total
 * blocks and writes one result, always in `%`: `avg` = 100 × hit / total and, from summary
 * schema 1.1 on (which added `count` and `sum` to every metric), `sum` = hit blocks and
 * `count` = total blocks. So:
 * - with `count` and `sum`, the rate is sum / count, already a fraction whatever the unit says
 *   (the unit is the avg's). Accumulators before the per-turn clamp could count a loader's
 *   miscount above the total, so the fraction is clamped to 0..1 as later ones do;
 * - schema 1.0 gives only `avg`, in the unit stated: `%` is divided by 100, `ratio` is read as is.
 * Any other unit (aiperf never writes one for this metric) gives no rate rather than a guess of
 * its scale. Shown beside the measured server-side rate: a gap between them is what users look for.
 */
export function theoreticalCacheHitRate(metric: SummaryMetric | undefined): number | null {
  if (!metric) return null;
  if (metric.count !== undefined && metric.count > 0 && metric.sum !== undefined) {
    const rate = metric.sum / metric.count;
    return Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : null;
  }
  if (metric.avg === undefined || !Number.isFinite(metric.avg)) return null;
  if (metric.unit === "%") return metric.avg / 100;
  if (metric.unit === "ratio") return metric.avg;
  return null;
}
