"use client";

import { downloadCsv } from "@/components/charts/export";
import type { CompareResponse, DeltaRowDto } from "@/lib/api/compare-schemas";
import { formatChange, formatPercent, formatValue } from "./format-value";

const VERDICT_CLASS: Record<string, string> = {
  better: "text-ok",
  worse: "text-danger",
  same: "text-muted",
  neutral: "",
  missing: "text-muted",
};

const ARROW: Record<DeltaRowDto["direction"], string> = {
  lower: "↓ better",
  higher: "↑ better",
  neutral: "",
};

function csvRows(data: CompareResponse) {
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  return data.rows.flatMap((row) =>
    row.cells.map((c) => ({
      group: row.group,
      metric: row.label,
      unit: row.unit,
      direction: row.direction,
      run: name(c.runId),
      runId: c.runId,
      baseline: row.baseline,
      value: c.value,
      absoluteChange: c.absolute,
      percentChange: c.percent,
      verdict: c.verdict,
    })),
  );
}

/** Every comparable number, each run against the baseline, coloured by the metric's direction. */
export function DeltaTable({ data }: { data: CompareResponse }) {
  if (data.rows.length === 0)
    return <p className="text-sm text-muted">These runs share no comparable metric.</p>;
  return (
    <section className="space-y-2">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold">Deltas against the baseline at {data.stat}</h2>
        <button
          type="button"
          className="btn-ghost text-xs"
          onClick={() => downloadCsv(csvRows(data), `compare-deltas-${data.stat}.csv`)}
        >
          CSV
        </button>
      </div>
      <div className="overflow-x-auto rounded-lg border border-border bg-card">
        <table className="table-base" data-testid="delta-table">
          <thead>
            <tr>
              <th>Metric</th>
              {data.runs.map((r) => (
                <th key={r.id} className="num">
                  {r.name}
                  {r.id === data.baseline ? (
                    <span className="ml-1 text-xs text-muted">(baseline)</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr key={row.key} data-metric={row.key}>
                <td>
                  <span className="font-medium">{row.label}</span>{" "}
                  <span className="text-xs text-muted">{ARROW[row.direction]}</span>
                </td>
                {row.cells.map((c) => (
                  <td key={c.runId} className="num" data-verdict={c.verdict}>
                    <div>{formatValue(c.value, row.unit)}</div>
                    {c.runId !== data.baseline && c.verdict !== "missing" ? (
                      <div className={`text-xs ${VERDICT_CLASS[c.verdict]}`}>
                        {formatChange(c.absolute, row.unit)} {formatPercent(c.percent)}
                      </div>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
