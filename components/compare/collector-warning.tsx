import type { CompareResponse } from "@/lib/api/compare-schemas";

/**
 * Collectors that differ between the compared runs (docs/metrics.md §Collectors): each costs throughput, so
 * an A/B whose arms differ in one measures the collector as much as the change under test.
 */
export function CollectorWarning({ data }: { data: CompareResponse }) {
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  const list = (ids: string[]) => ids.map(name).join(", ");
  const differs = data.collectorMismatches.filter((m) => m.kind === "differs");
  const unknown = data.collectorMismatches.filter((m) => m.kind === "unknown");
  if (differs.length === 0 && unknown.length === 0) return null;
  return (
    <div className="space-y-1">
      {differs.length > 0 ? (
        <div
          role="alert"
          data-testid="collector-mismatch"
          className="rounded-lg border border-warn bg-card p-3 text-sm"
        >
          <p className="font-medium text-warn">
            Collectors differ between these runs: this A/B is contaminated.
          </p>
          <ul className="mt-1 list-disc pl-5">
            {differs.map((m) => (
              <li key={m.collector}>
                <code>{m.flag}</code> is on in {list(m.onRunIds)} and off in {list(m.offRunIds)}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-muted">
            These collectors cost throughput (about 2.5% measured); turn them on or off in every run before
            reading the deltas.
          </p>
        </div>
      ) : null}
      {unknown.length > 0 ? (
        <p className="text-xs text-muted" data-testid="collector-unknown">
          Not known for every run:{" "}
          {unknown.map((m) => (
            <span key={m.collector} className="mr-2">
              <code>{m.flag}</code> (unknown in {list(m.unknownRunIds)})
            </span>
          ))}
          — upload the engine config with each run to be sure.
        </p>
      ) : null}
    </div>
  );
}
