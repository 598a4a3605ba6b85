/**
 * The numpy statistics the benchmark tools call, written here independently of lib/: `np.mean`,
 * `np.std` (population), `np.median` and `np.percentile` (linear interpolation), each of
 * `values or 0` as the tools pass them (an empty list counts as [0]).
 */
export function npPercentile(values: number[], q: number): number {
  const s = (values.length ? [...values] : [0]).sort((a, b) => a - b);
  if (s.length === 1) return s[0];
  const rank = (q / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}

export function npMean(values: number[]): number {
  const v = values.length ? values : [0];
  return v.reduce((a, b) => a + b, 0) / v.length;
}

export function npStd(values: number[]): number {
  const v = values.length ? values : [0];
  const m = npMean(v);
  return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length);
}

export const npMedian = (values: number[]) => npPercentile(values, 50);

/**
 * A latency's figures in a serving benchmark's result (vLLM's `calculate_metrics`, which SGLang
 * adapted), from its values in seconds: `mean_<name>_ms`, `median_…`, `std_…` and one `p<q>_…`
 * per percentile, in that order.
 */
export function msStats(name: string, seconds: number[], percentiles: readonly number[] = [99]) {
  const out: Record<string, number> = {
    [`mean_${name}_ms`]: npMean(seconds) * 1000,
    [`median_${name}_ms`]: npMedian(seconds) * 1000,
    [`std_${name}_ms`]: npStd(seconds) * 1000,
  };
  for (const q of percentiles) out[`p${q}_${name}_ms`] = npPercentile(seconds, q) * 1000;
  return out;
}
