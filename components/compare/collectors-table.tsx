import { DataTable } from "@/components/charts/data-table";
import type { Collectors, RunSummary } from "@/lib/api/schemas";
import {
  COLLECTOR_FLAGS,
  COLLECTOR_NOT_IN_FILES,
  collectorApplies,
  effectiveCollectors,
  type EffectiveCollector,
} from "@/lib/metrics/collectors-mismatch";

type Flag = [keyof Collectors, string];

/** Which collectors were on in each compared run, and whether that was recorded or inferred from the data. */
export function CollectorsTable({ runs }: { runs: RunSummary[] }) {
  const flags = Object.entries(COLLECTOR_FLAGS) as Flag[];
  const states = runs.map((r) => ({ run: r, c: effectiveCollectors(r) }));
  return (
    <details className="rounded-lg border border-border bg-card px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">Collectors per run</summary>
      <DataTable
        className="mt-2"
        testId="collectors-table"
        stacked
        rows={flags}
        rowKey={([key]) => key}
        columns={[
          { header: "Collector", cell: ([, flag]) => <code>{flag}</code> },
          ...states.map(({ run, c }) => ({
            header: run.name,
            className: ([key]: Flag) =>
              c[key].value === null ? "text-muted" : c[key].value ? "text-warn" : "text-ok",
            cell: ([key]: Flag) =>
              c[key].value === null && !collectorApplies(key, run.facts.backend?.value) ? (
                <span title={`a TensorRT-LLM collector; this run's backend is ${run.facts.backend?.value}`}>
                  does not apply
                </span>
              ) : (
                <CollectorState {...c[key]} />
              ),
          })),
        ]}
      />
    </details>
  );
}

function CollectorState({ value, source, evidence }: EffectiveCollector) {
  return (
    <>
      {value === null ? COLLECTOR_NOT_IN_FILES : value ? "on" : "off"}
      {source === "inferred" ? (
        <span className="ml-1 text-xs text-muted">(inferred from the data)</span>
      ) : source === "implied" ? (
        <span className="ml-1 text-xs text-muted" title={evidence ?? undefined}>
          (inferred from the config)
        </span>
      ) : null}
    </>
  );
}
