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

/** The export from its text; null when it is not one (no `metadata.parameter_name`). */
export function readAiperfSweep(text: string): AiperfSweepExport | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  const root = obj(doc);
  const meta = obj(root?.metadata);
  if (!root || !meta || typeof meta.parameter_name !== "string") return null;
  const perValue: AiperfSweepExport["perValue"] = {};
  for (const [value, metrics] of Object.entries(obj(root.per_value_metrics) ?? {})) {
    const out: Record<string, { mean: number; unit: string | null }> = {};
    for (const [name, m] of Object.entries(obj(metrics) ?? {})) {
      const block = obj(m);
      if (block && typeof block.mean === "number" && Number.isFinite(block.mean))
        out[name] = { mean: block.mean, unit: typeof block.unit === "string" ? block.unit : null };
    }
    perValue[value] = out;
  }
  return {
    parameterName: meta.parameter_name.slice(0, 100),
    parameterValues: numbers(meta.parameter_values),
    paretoOptimal: numbers(root.pareto_optimal),
    perValue,
  };
}
