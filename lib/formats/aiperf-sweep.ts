/**
 * aiperf's parameter-sweep aggregate, `sweep_aggregate/profile_export_aiperf_sweep.json`
 * (docs/formats.md §aiperf sweep aggregate): `metadata` (parameter name and values),
 * `per_value_metrics` (value → metric → {mean, std, …, unit}) and `pareto_optimal` (values).
 * Only what a sweep shows is kept: the swept parameter, its values, aiperf's own Pareto set, and
 * the mean of each metric per value, so a sweep can say what aiperf reported beside its own points.
 */

export interface AiperfSweepExport {
  parameterName: string;
  parameterValues: number[];
  paretoOptimal: number[];
  /** value (as aiperf keys it) → metric name → mean across trials, with its unit */
  perValue: Record<string, Record<string, { mean: number; unit: string | null }>>;
}

export const AIPERF_SWEEP_FILE = /(^|\/)profile_export_aiperf_sweep\.json$/;

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const numbers = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => typeof x === "number" && Number.isFinite(x)) : [];

function means(metrics: unknown): Record<string, { mean: number; unit: string | null }> {
  const out: Record<string, { mean: number; unit: string | null }> = {};
  for (const [name, m] of Object.entries(obj(metrics) ?? {})) {
    const block = obj(m);
    if (block && typeof block.mean === "number" && Number.isFinite(block.mean))
      out[name] = { mean: block.mean, unit: typeof block.unit === "string" ? block.unit : null };
  }
  return out;
}

/**
 * The export from its text; null when it is not one. Two generations: the first keys values by
 * `metadata.parameter_name` and `per_value_metrics`, with `pareto_optimal` a list of values; the
 * later one lists `metadata.sweep_parameters` ({name, values}) and `per_combination_metrics`
 * ({parameters, metrics}), with `pareto_optimal` a list of parameter objects. Of a sweep over
 * several parameters, the first is kept.
 */
export function readAiperfSweep(text: string): AiperfSweepExport | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  const root = obj(doc);
  const meta = obj(root?.metadata);
  if (!root || !meta) return null;
  if (typeof meta.parameter_name === "string") {
    const perValue: AiperfSweepExport["perValue"] = {};
    for (const [value, metrics] of Object.entries(obj(root.per_value_metrics) ?? {}))
      perValue[value] = means(metrics);
    return {
      parameterName: meta.parameter_name.slice(0, 100),
      parameterValues: numbers(meta.parameter_values),
      paretoOptimal: numbers(root.pareto_optimal),
      perValue,
    };
  }
  const first = Array.isArray(meta.sweep_parameters) ? obj(meta.sweep_parameters[0]) : null;
  if (!first || typeof first.name !== "string") return null;
  const name = first.name;
  const valueOf = (params: unknown) => obj(params)?.[name];
  const perValue: AiperfSweepExport["perValue"] = {};
  const combos = Array.isArray(root.per_combination_metrics) ? root.per_combination_metrics : [];
  for (const c of combos) {
    const v = valueOf(obj(c)?.parameters);
    if (typeof v === "number") perValue[String(v)] = means(obj(c)?.metrics);
  }
  const pareto = Array.isArray(root.pareto_optimal) ? root.pareto_optimal.map(valueOf) : [];
  return {
    parameterName: name.slice(0, 100),
    parameterValues:
      numbers(first.values).length > 0 ? numbers(first.values) : Object.keys(perValue).map(Number),
    paretoOptimal: numbers(pareto),
    perValue,
  };
}
