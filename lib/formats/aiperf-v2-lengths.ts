/**
 * ISL / OSL means of an aiperf v2 `input_config` (0.8+ `BenchmarkConfig`, docs/formats.md §aiperf
 * summary). v1 kept them at `input.prompt.input_tokens.mean`; v2 nests them per dataset:
 * `datasets[i].prompts.isl` / `.osl` of a `type: synthetic` dataset, each a sampling distribution
 * (aiperf/config/distributions.py) written as a scalar, `{value}`, `{mean, stddev}`,
 * `{mean, median}`, `{p50, p99[, mean]}`, `{peaks: [...]}` or `{points: [...]}`, or, mixing pairs,
 * `prompts.sequence_distribution: [{isl, osl, probability}]`. The mean is each distribution's
 * expected value, as aiperf computes it for its own displays. A file or public dataset has no
 * synthetic lengths: null, and the measured means stand.
 */

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Φ⁻¹(0.99), the z-score aiperf's percentile distribution fits its p99 with. */
const Z99 = 2.3263478740408408;

/** A sampling distribution's expected value (aiperf's `expected_value`), or null when unreadable. */
export function expectedValue(d: unknown): number | null {
  const scalar = num(d);
  if (scalar !== null) return scalar;
  const o = obj(d);
  if (!o) return null;
  if (Array.isArray(o.peaks)) return weighted(o.peaks.map((p) => [obj(p)?.weight, peakDistribution(p)]));
  if (Array.isArray(o.points)) return weighted(o.points.map((p) => [obj(p)?.weight, obj(p)?.value]));
  const p50 = num(o.p50);
  const p99 = num(o.p99);
  if (num(o.mean) !== null) return num(o.mean);
  // A {p50, p99} log-normal's mean: p50 · exp(σ² / 2), σ = ln(p99 / p50) / Φ⁻¹(0.99).
  if (p50 !== null && p99 !== null && p50 > 0 && p99 > p50) {
    const sigma = Math.log(p99 / p50) / Z99;
    return p50 * Math.exp((sigma * sigma) / 2);
  }
  return num(o.value);
}

/** A peak is written inline (`{mean, stddev, weight}`) or as `{distribution, weight}`. */
function peakDistribution(p: unknown): unknown {
  const o = obj(p);
  if (!o) return null;
  if ("distribution" in o) return o.distribution;
  const rest = { ...o };
  delete rest.weight;
  return rest;
}

/** Σ wᵢ · E[xᵢ] / Σ wᵢ, weights defaulting to 1 as aiperf's do; null when any part is unreadable. */
function weighted(parts: Array<[unknown, unknown]>): number | null {
  let total = 0;
  let sum = 0;
  for (const [w, d] of parts) {
    const weight = w === undefined ? 1 : num(w);
    const mean = expectedValue(d);
    if (weight === null || mean === null) return null;
    total += weight;
    sum += weight * mean;
  }
  return total > 0 ? sum / total : null;
}

/** The datasets as a list, whether written as `datasets: [...]`, a name → dataset map, or `dataset:`. */
function datasetList(cfg: Obj): Obj[] {
  if (Array.isArray(cfg.datasets)) return cfg.datasets.map(obj).filter((d): d is Obj => d !== null);
  const map = obj(cfg.datasets);
  if (map) return Object.entries(map).flatMap(([name, d]): Obj[] => (obj(d) ? [{ name, ...obj(d) }] : []));
  const one = obj(cfg.dataset);
  return one ? [one] : [];
}

export interface V2Lengths {
  isl: number | null;
  osl: number | null;
}

/**
 * The profiling phase's dataset (the one it names, else the only or first one) and its synthetic
 * prompt means.
 */
export function v2SyntheticLengths(cfg: Obj, profilingPhase: Obj | undefined): V2Lengths {
  const none = { isl: null, osl: null };
  const datasets = datasetList(cfg);
  const named = typeof profilingPhase?.dataset === "string" ? profilingPhase.dataset : null;
  const dataset = (named && datasets.find((d) => d.name === named)) || datasets[0];
  if (!dataset || dataset.type !== "synthetic") return none;
  const prompts = obj(dataset.prompts);
  if (!prompts) return none;
  // sglang's range-ratio window [mean · r, mean] does not centre on the configured mean.
  if (prompts.random_range_ratio != null && prompts.random_range_ratio_mode === "sglang") return none;
  if (Array.isArray(prompts.sequence_distribution)) {
    const entries = prompts.sequence_distribution.map(obj).filter((e): e is Obj => e !== null);
    return {
      isl: weighted(entries.map((e) => [e.probability, e.isl])),
      osl: weighted(entries.map((e) => [e.probability, e.osl])),
    };
  }
  return { isl: expectedValue(prompts.isl), osl: expectedValue(prompts.osl) };
}
