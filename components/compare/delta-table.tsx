"use client";

import { DataTable } from "@/components/charts/data-table";
import { downloadCsv } from "@/components/charts/export";
import type { CompareResponse, DeltaRowDto } from "@/lib/api/compare-schemas";
import { VerdictText } from "@/components/series/verdict-text";
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
      definition: row.description ?? "",
      unit: row.unit,
      direction: row.direction,
      run: name(c.runId),
      runId: c.runId,
      baseline: row.baseline,
      value: c.value,
      absoluteChange: c.absolute,
      percentChange: c.percent,
      verdict: c.verdict,
      noiseVerdict: c.noise?.verdict ?? null,
      noiseChange: c.noise?.effect ?? null,
      noiseLow: c.noise?.low ?? null,
      noiseHigh: c.noise?.high ?? null,
      noiseMethod: c.noise?.method ?? null,
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
        <DataTable
          testId="delta-table"
          className="table-sticky-first"
          rows={data.rows}
          rowKey={(row) => row.key}
          rowAttrs={(row) => ({ "data-metric": row.key })}
          columns={[
            {
              header: "Metric",
              // One line per metric: the names are short, and a wrapped label doubled each row.
              className: "whitespace-nowrap",
              cell: (row) => (
                <>
                  {row.description ? (
                    // A short name (a segment's), its definition on hover and for screen readers.
                    <span
                      className="font-medium underline decoration-dotted underline-offset-2"
                      title={row.description}
                      aria-description={row.description}
                    >
                      {row.label}
                    </span>
                  ) : (
                    <span className="font-medium">{row.label}</span>
                  )}{" "}
                  <span className="text-xs text-muted">{ARROW[row.direction]}</span>
                </>
              ),
            },
            ...data.runs.map((r, i) => ({
              header: <RunHeader name={r.name} baseline={r.id === data.baseline} />,
              num: true,
              attrs: (row: DeltaRowDto) => ({ "data-verdict": row.cells[i].verdict }),
              cell: (row: DeltaRowDto) => (
                <DeltaCell row={row} cell={row.cells[i]} baseline={data.baseline} />
              ),
            })),
            ...noiseColumns(data),
          ]}
        />
      </div>
    </section>
  );
}

/**
 * One column per judged run: its noise-aware verdict with the 95% interval of the change; the
 * method, sample sizes, seed and threshold in the cell's title and under the verdict.
 */
function noiseColumns(data: CompareResponse) {
  return data.runs.flatMap((r, i) =>
    data.rows.some((row) => row.cells[i].noise)
      ? [
          {
            header: (
              <>
                {r.name} <span className="text-xs text-muted">verdict vs {data.noise?.baseline}</span>
              </>
            ),
            attrs: (row: DeltaRowDto) => ({ "data-noise-verdict": row.cells[i].noise?.verdict ?? "" }),
            cell: (row: DeltaRowDto) => {
              const v = row.cells[i].noise;
              return v ? <VerdictText v={v} /> : <span className="text-xs text-muted">no verdict</span>;
            },
          },
        ]
      : [],
  );
}

/** A run's column header: its name wraps within the column, so eight runs fit a phone's scroll. */
function RunHeader({ name, baseline }: { name: string; baseline: boolean }) {
  return (
    <span className="inline-block min-w-[7rem] max-w-[10rem] whitespace-normal">
      {name}
      {baseline ? <span className="ml-1 text-xs text-muted">(baseline)</span> : null}
    </span>
  );
}

function DeltaCell({
  row,
  cell,
  baseline,
}: {
  row: DeltaRowDto;
  cell: DeltaRowDto["cells"][number];
  baseline: string;
}) {
  return (
    <>
      <div>{formatValue(cell.value, row.unit)}</div>
      {cell.runId !== baseline && cell.verdict !== "missing" ? (
        <div className={`text-xs ${VERDICT_CLASS[cell.verdict]}`}>
          {formatChange(cell.absolute, row.unit)} {formatPercent(cell.percent)}
        </div>
      ) : null}
    </>
  );
}
