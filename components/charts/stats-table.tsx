import type { ReactNode } from "react";
import { DataTable, type Column } from "@/components/charts/data-table";
import type { FigureDefinition } from "@/components/charts/definitions";
import type { Stats } from "@/lib/api/schemas";
import { formatNumber, timeUnitFor } from "@/lib/format-number";

/** One metric of a statistics table: a latency in ms (shown in one unit per row) or a plain quantity. */
export interface StatsRow {
  id: string;
  label: ReactNode;
  stats: Stats | null;
  ms: boolean;
}

const COLS: Array<keyof Stats> = ["count", "mean", "p50", "p75", "p90", "p95", "p99", "min", "max"];

function cellText(s: Stats | null, ms: boolean, c: keyof Stats): string {
  if (!s) return "—";
  if (c === "count") return s.count.toLocaleString("en-US");
  // One unit per row: a p99 of 12.05 s beside a p50 of 6,726.7 ms misreads.
  return ms
    ? timeUnitFor(COLS.map((k) => (k === "count" ? null : s[k]))).format(s[c])
    : formatNumber(s[c], 1);
}

/**
 * The statistics table of the latency views (aiperf records, aiperf's own summary, TensorRT-LLM
 * perf metrics): one row per metric, count then the centre then the tails, one time unit per
 * row. Each cell carries `data-stat="<row id>-<stat>"` for the browser tests; every table says
 * which window, requests and method its figures use.
 */
export function StatsTable({
  rows,
  testId,
  definition,
  after,
  caption,
}: {
  rows: readonly StatsRow[];
  testId: string;
  definition: FigureDefinition;
  /** Below the definition line: what was not recorded and how to record it. */
  after?: ReactNode;
  caption?: string;
}) {
  const columns: Array<Column<StatsRow>> = [
    { header: "Metric", cell: (r) => r.label },
    ...COLS.map((c) => ({
      header: c,
      num: true,
      cell: (r: StatsRow) => cellText(r.stats, r.ms, c),
      attrs: (r: StatsRow) => ({ "data-stat": `${r.id}-${c}` }),
    })),
  ];
  return (
    <DataTable
      framed
      testId={testId}
      rows={rows}
      columns={columns}
      rowKey={(r) => r.id}
      definition={definition}
      definitionNote="one time unit per row"
      after={after}
      caption={caption}
    />
  );
}
