import { formatCount, formatNumber, plural, timeUnitFor } from "@/lib/format-number";
import { STEP_METRICS, type StepsPayload } from "@/lib/api/trtllm-charts";
import { TableDefinition } from "@/components/charts/data-table";
import { STEP_PHASE_LABELS, TRTLLM_STEPS } from "@/lib/metrics/figures/steps";
import { NotRecordedText } from "./not-recorded";

/** Step-level statistics of generation steps and context chunks, and each worker's clock offset. */
export function StepStatsTable({ payload }: { payload: StepsPayload }) {
  const groups = (
    [
      ["generation steps", payload.steps],
      ["context chunks", payload.chunks],
    ] as const
  ).filter(([, stats]) => STEP_METRICS.some((m) => stats[m]));
  // One time unit for the whole table.
  const ms = timeUnitFor(
    groups.flatMap(([, stats]) =>
      STEP_METRICS.flatMap((m) => (stats[m] ? [stats[m]!.mean, stats[m]!.p99] : [])),
    ),
  ).format;
  return (
    <div className="space-y-3 rounded-lg border border-border bg-card p-4" data-table-card="">
      <h3 className="text-sm font-semibold">Step-level times</h3>
      <table className="table-base w-full text-xs" data-testid="step-stats">
        <thead>
          <tr>
            <th>per step</th>
            <th className="num">count</th>
            <th className="num">mean</th>
            <th className="num">p50</th>
            <th className="num">p75</th>
            <th className="num">p90</th>
            <th className="num">p99</th>
          </tr>
        </thead>
        <tbody>
          {groups.flatMap(([group, stats]) =>
            STEP_METRICS.map((m) => {
              const s = stats[m];
              return (
                <tr key={`${group}-${m}`}>
                  <td>
                    <span className="text-muted">{group}:</span> {STEP_PHASE_LABELS[m]}
                  </td>
                  <td className="num">{s ? formatCount(s.count) : <NotRecordedText />}</td>
                  <td className="num">{s ? ms(s.mean) : null}</td>
                  <td className="num">{s ? ms(s.p50) : null}</td>
                  <td className="num">{s ? ms(s.p75) : null}</td>
                  <td className="num">{s ? ms(s.p90) : null}</td>
                  <td className="num">{s ? ms(s.p99) : null}</td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
      <TableDefinition definition={TRTLLM_STEPS} note="one time unit for the table" />
      {payload.offsets.length ? (
        <p className="text-xs text-muted">
          Step clock offsets (median of last step token time − request stamp):{" "}
          {payload.offsets
            .map(
              (o) =>
                `${o.source} (${o.role}) ${o.offsetS === null ? "unknown" : clockOffset(o.offsetS)} from ${plural(o.samples, "record")}`,
            )
            .join("; ")}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A step clock's offset from the request clock, in the unit that reads: the clock bases can be
 * days apart (docs/metrics.md §Step clock offsets), so "3.4 days", not "294,065.965 s".
 */
export function clockOffset(seconds: number): string {
  const a = Math.abs(seconds);
  if (a < 60) return `${formatNumber(seconds, 3)} s`;
  if (a < 3600) return `${formatNumber(seconds / 60, 1)} min`;
  if (a < 86_400) return `${formatNumber(seconds / 3600, 1)} h`;
  return `${formatNumber(seconds / 86_400, 1)} days`;
}
