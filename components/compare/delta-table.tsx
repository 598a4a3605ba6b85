"use client";

import { DataTable } from "@/components/charts/data-table";
import { downloadCsv } from "@/components/charts/export";
import type { CompareResponse, DeltaRowDto } from "@/lib/api/compare-schemas";
import { VerdictText } from "@/components/series/verdict-text";
import { distinctLabels } from "@/lib/metrics/short-labels";
import { formatBare, formatChange, formatPercent, formatValue, unitOfRow } from "./format-value";
import { runColor } from "./run-colors";

/** From this many runs the table is compact: units in the row names, smaller type, tighter cells. */
const COMPACT_FROM = 5;

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

/** The deltas as a file: one row per metric and run, every number in its own column. */
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

/**
 * Every comparable number, each run against the baseline, coloured by the metric's direction. A
 * row is one line at any number of runs: a cell holds the value and its change in percent (the
 * absolute change in its title and the CSV), and the noise-aware verdicts of one run, the one
 * chosen above the table, sit in a single column rather than one column per run.
 */
export function DeltaTable({
  data,
  judge,
  onJudge,
  pending = false,
}: {
  data: CompareResponse;
  /** The run whose verdicts the verdict column shows ("" = the last judged run) */
  judge: string;
  onJudge: (id: string) => void;
  /** A new statistic or baseline is loading: the table is the previous one */
  pending?: boolean;
}) {
  if (data.rows.length === 0)
    return <p className="text-sm text-muted">These runs share no comparable metric.</p>;
  const judged = data.runs.filter((_, i) => data.rows.some((row) => row.cells[i].noise));
  const chosen = judged.find((r) => r.id === judge) ?? judged.at(-1);
  const at = chosen ? data.runs.indexOf(chosen) : -1;
  const compact = data.runs.length >= COMPACT_FROM;
  const labels = distinctLabels(data.runs.map((r) => r.name));
  return (
    <section className="space-y-2" aria-busy={pending || undefined} data-pending={pending ? "" : undefined}>
      <h2 className="text-sm font-semibold">Deltas against the baseline at {data.stat}</h2>
      <div className="pending-dim flex flex-wrap items-center justify-between gap-2">
        {chosen ? (
          // Wraps on a phone: the run's name in the select must not widen the page.
          <label className="flex min-w-0 max-w-full flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
            Verdicts of
            <select
              className="input min-w-0 max-w-full py-0.5 text-xs sm:max-w-[22rem]"
              data-testid="verdict-run"
              value={chosen.id}
              onChange={(e) => onJudge(e.target.value)}
            >
              {judged.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
            against {data.noise?.baseline}
          </label>
        ) : (
          <span />
        )}
        <button
          type="button"
          className="btn-ghost text-xs"
          onClick={() => downloadCsv(csvRows(data), `compare-deltas-${data.stat}.csv`)}
        >
          CSV
        </button>
      </div>
      <div className="pending-dim overflow-x-auto rounded-lg border border-border bg-card">
        <DataTable
          testId="delta-table"
          className={`table-sticky-first table-compact ${compact ? "table-dense" : ""}`}
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
                  )}
                  {compact && unitOfRow(row.unit) ? (
                    <span className="text-muted"> ({unitOfRow(row.unit)})</span>
                  ) : null}{" "}
                  <span className="text-xs text-muted" title={compact ? ARROW[row.direction] : undefined}>
                    {compact ? ARROW[row.direction].slice(0, 1) : ARROW[row.direction]}
                  </span>
                </>
              ),
            },
            ...data.runs.map((r, i) => ({
              header: (
                <RunHeader
                  name={r.name}
                  label={labels[i]}
                  color={runColor(i)}
                  baseline={r.id === data.baseline}
                  wide={!compact}
                />
              ),
              num: true,
              className: "whitespace-nowrap",
              attrs: (row: DeltaRowDto) => ({ "data-verdict": row.cells[i].verdict }),
              cell: (row: DeltaRowDto) => (
                <DeltaCell row={row} cell={row.cells[i]} baseline={data.baseline} compact={compact} />
              ),
            })),
            ...(chosen
              ? [
                  {
                    header: (
                      <span
                        className="line-clamp-2 min-w-[10rem] max-w-[14rem] whitespace-normal normal-case tracking-normal"
                        title={chosen.name}
                      >
                        Verdict of {labels[at]}
                      </span>
                    ),
                    className: "whitespace-nowrap",
                    attrs: (row: DeltaRowDto) => ({
                      "data-noise-verdict": row.cells[at].noise?.verdict ?? "",
                    }),
                    cell: (row: DeltaRowDto) => {
                      const v = row.cells[at].noise;
                      return v ? (
                        <VerdictText v={v} compact />
                      ) : (
                        <span className="text-xs text-muted">no verdict</span>
                      );
                    },
                  },
                ]
              : []),
          ]}
        />
      </div>
      <NoVerdictNotes data={data} />
    </section>
  );
}

/** Why a run got no verdicts (no series baseline, or another model or workload than the baseline). */
function NoVerdictNotes({ data }: { data: CompareResponse }) {
  const notes = Object.entries(data.noise?.notes ?? {});
  if (notes.length === 0) return null;
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  return (
    <ul className="pending-dim space-y-0.5 text-xs text-muted" data-testid="verdict-notes">
      {notes.map(([id, note]) => (
        <li key={id}>
          No verdicts for {name(id)}: {note}
        </li>
      ))}
    </ul>
  );
}

/**
 * A run's column header: its colour (as in the run list and the charts) and what tells its name
 * from the others' (distinctLabels), in at most three lines with the whole name on hover, so
 * eight runs fit a laptop screen. A long unbroken part (a model path, a file name) breaks
 * anywhere rather than running over the next column's header.
 */
function RunHeader({
  name,
  label,
  color,
  baseline,
  wide,
}: {
  name: string;
  label: string;
  color: string;
  baseline: boolean;
  /** Fewer than five runs: room for a wider header. */
  wide: boolean;
}) {
  return (
    <span
      className={`line-clamp-4 min-w-[4.5rem] ${wide ? "max-w-[11rem]" : "max-w-[7.5rem]"} whitespace-normal normal-case tracking-normal [overflow-wrap:anywhere]`}
      title={name}
      data-run-header=""
    >
      <span
        aria-hidden
        className="mr-1 inline-block h-2.5 w-2.5 rounded-sm align-baseline"
        style={{ background: color }}
      />
      {baseline ? <span className="text-accent">(baseline) </span> : null}
      {label}
    </span>
  );
}

function DeltaCell({
  row,
  cell,
  baseline,
  compact,
}: {
  row: DeltaRowDto;
  cell: DeltaRowDto["cells"][number];
  baseline: string;
  compact: boolean;
}) {
  const change = cell.runId !== baseline && cell.verdict !== "missing";
  return (
    <>
      <div className="inline">
        {compact ? formatBare(cell.value, row.unit) : formatValue(cell.value, row.unit)}
      </div>
      {change ? (
        <div
          className={`ml-1.5 inline text-xs ${VERDICT_CLASS[cell.verdict]}`}
          title={`${formatChange(cell.absolute, row.unit)} against the baseline`}
        >
          {formatPercent(cell.percent, true) || formatChange(cell.absolute, row.unit)}
        </div>
      ) : null}
    </>
  );
}
