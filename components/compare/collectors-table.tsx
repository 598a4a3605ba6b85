import type { Collectors, RunSummary } from "@/lib/api/schemas";
import { COLLECTOR_FLAGS, effectiveCollectors } from "@/lib/metrics/collectors-mismatch";

/** Which collectors were on in each compared run, and whether that was recorded or inferred from the data. */
export function CollectorsTable({ runs }: { runs: RunSummary[] }) {
  const flags = Object.entries(COLLECTOR_FLAGS) as Array<[keyof Collectors, string]>;
  const states = runs.map((r) => ({ run: r, c: effectiveCollectors(r) }));
  return (
    <details className="rounded-lg border border-border bg-card px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">Collectors per run</summary>
      <table className="table-base mt-2" data-testid="collectors-table">
        <thead>
          <tr>
            <th>Collector</th>
            {runs.map((r) => (
              <th key={r.id}>{r.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {flags.map(([key, flag]) => (
            <tr key={key}>
              <td>
                <code>{flag}</code>
              </td>
              {states.map(({ run, c }) => {
                const { value, source } = c[key];
                return (
                  <td
                    key={run.id}
                    className={value === null ? "text-muted" : value ? "text-warn" : "text-ok"}
                  >
                    {value === null ? "unknown" : value ? "on" : "off"}
                    {source === "inferred" ? (
                      <span className="ml-1 text-xs text-muted">(inferred from the data)</span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
