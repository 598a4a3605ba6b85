import type { CompareResponse } from "@/lib/api/compare-schemas";

/**
 * Collectors not known for every compared run (docs/metrics.md §Collectors): each costs throughput, so
 * an A/B whose arms differ in one measures the collector as much as the change under test.
 */
export function CollectorWarning({ data }: { data: CompareResponse }) {
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  const list = (ids: string[]) => ids.map(name).join(", ");
  const unknown = data.collectorMismatches.filter((m) => m.kind === "unknown");
  // A collector on in one run and off in another is the comparability doctor's reason (./comparability-panel.tsx).
  if (unknown.length === 0) return null;
  return (
    <div className="space-y-1">
      {unknown.length > 0 ? (
        <p className="text-xs text-muted" data-testid="collector-unknown">
          Not known for every run:{" "}
          {unknown.map((m) => (
            <span key={m.collector} className="mr-2">
              <code>{m.flag}</code> (not in the files of {list(m.unknownRunIds)})
            </span>
          ))}
          — upload the engine config with each run to be sure.
        </p>
      ) : null}
    </div>
  );
}
