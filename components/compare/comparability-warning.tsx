import type { CompareResponse } from "@/lib/api/compare-schemas";

/**
 * Runs that differ from the baseline in what was benchmarked (docs/metrics.md §Comparable runs):
 * another model, GPU, backend, ISL/OSL or concurrency. Their deltas are not coloured and they get
 * no verdict until the user says the difference is what they mean to compare.
 */
export function ComparabilityWarning({
  data,
  onAllow,
}: {
  data: CompareResponse;
  onAllow: (allow: boolean) => void;
}) {
  const c = data.comparability;
  if (!c || c.runs.length === 0) return null;
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  const base = name(data.baseline);
  return (
    <div
      role={c.allowed ? undefined : "alert"}
      data-testid="comparability-warning"
      data-allowed={c.allowed ? "true" : "false"}
      className="rounded-lg border border-warn bg-card p-3 text-sm"
    >
      <p className="font-medium text-warn">
        {c.allowed
          ? "These runs benchmark different things: verdicts given because you asked for them."
          : "These runs benchmark different things: no verdicts, and no better or worse."}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {c.runs.map((r) => (
          <li key={r.runId}>
            {name(r.runId)} against {base}:{" "}
            {r.differences.map((d, i) => (
              <span key={d.fact}>
                {i > 0 ? "; " : ""}
                {d.label} <strong>{d.b}</strong> vs {d.a}
              </span>
            ))}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-muted">
        A difference measured across another model, GPU, backend, input/output length or concurrency is that
        difference, not the change under test.{" "}
        <button type="button" className="btn-ghost ml-1" onClick={() => onAllow(!c.allowed)}>
          {c.allowed ? "Withhold verdicts again" : "I mean to compare them: give verdicts"}
        </button>
      </p>
    </div>
  );
}
