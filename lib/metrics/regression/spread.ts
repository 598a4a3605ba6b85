/**
 * Run-to-run spread of a run-level figure (throughput, hit rate) from a series' own history
 * (docs/metrics.md §Regressions): the median absolute deviation of the last N runs, scaled by
 * 1.4826 so it estimates a standard deviation when the runs scatter normally.
 */

/** Fewer earlier runs than this: "not enough history". */
export const MIN_HISTORY = 3;

/**
 * The band half-width in robust sigmas that a new run from the same distribution leaves with
 * probability 5%, for N earlier runs: the 95th percentile of |x − median(h)| / (1.4826·MAD(h))
 * over 100,000 simulated normal histories of N runs plus one new run (mulberry32, seed 12345).
 * It is wide for few runs because a MAD of three values is itself very noisy.
 */
// prettier-ignore
const BAND_SIGMAS: Record<number, number> = {
  3: 22.13, 4: 6.63, 5: 6.01, 6: 4.18, 7: 4.08, 8: 3.43, 9: 3.35, 10: 3.04, 11: 3.01, 12: 2.82,
  13: 2.77, 14: 2.66, 15: 2.66, 16: 2.57, 17: 2.55, 18: 2.5, 19: 2.48, 20: 2.42, 21: 2.42,
  22: 2.37, 23: 2.37, 24: 2.33, 25: 2.34, 26: 2.3, 27: 2.29, 28: 2.27, 29: 2.27, 30: 2.26,
};

export function bandSigmas(n: number): number {
  return BAND_SIGMAS[Math.min(30, Math.max(3, Math.floor(n)))];
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

export interface NoiseBand {
  center: number;
  /** 1.4826 · MAD */
  sigma: number;
  /** center ± halfWidth is the band */
  halfWidth: number;
  runs: number;
}

/** The band of the history's values, or null with fewer than MIN_HISTORY finite values. */
export function noiseBand(history: readonly number[]): NoiseBand | null {
  const h = history.filter(Number.isFinite);
  if (h.length < MIN_HISTORY) return null;
  const center = median(h);
  const sigma = 1.4826 * median(h.map((v) => Math.abs(v - center)));
  return { center, sigma, halfWidth: bandSigmas(h.length) * sigma, runs: h.length };
}

export interface SpreadResult {
  effect: number;
  low: number;
  high: number;
  baseline: number;
  value: number;
  band: NoiseBand;
}

/**
 * The relative change of `value` from `baseline` (the baseline run's value, or the history's
 * median) with the band's half-width on either side, relative to |baseline|. Null with too little
 * history or a zero baseline.
 */
export function spreadChange(
  history: readonly number[],
  value: number,
  baseline?: number,
): SpreadResult | "not enough history" | null {
  const band = noiseBand(history);
  if (!band) return "not enough history";
  const base = baseline ?? band.center;
  if (!Number.isFinite(base) || base === 0 || !Number.isFinite(value)) return null;
  const scale = Math.abs(base);
  const effect = (value - base) / scale;
  const half = band.halfWidth / scale;
  return { effect, low: effect - half, high: effect + half, baseline: base, value, band };
}
