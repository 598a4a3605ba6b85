import type { CsvRow } from "./export";
import { DataTable } from "./data-table";

const cellText = (v: CsvRow[string]) =>
  v === null || v === undefined || v === ""
    ? "—"
    : typeof v === "number"
      ? v.toLocaleString("en-US", { maximumFractionDigits: 3 })
      : String(v);

/**
 * A chart's rows as a table: the "view as table" fallback for readers who cannot see the plot
 * (screen readers, colour vision) and for exact values. The columns are the CSV export's, so the
 * table, the file and the plot show the same numbers.
 */
export function ChartTable({ rows, caption }: { rows: CsvRow[]; caption: string }) {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  return (
    <div className="max-h-96 overflow-auto rounded-md border border-border" data-testid="chart-table">
      <DataTable
        rows={rows}
        rowKey={(_, i) => String(i)}
        columns={columns.map((c) => ({
          header: c,
          num: rows.some((r) => typeof r[c] === "number"),
          cell: (r: CsvRow) => cellText(r[c]),
        }))}
        caption={caption}
      />
    </div>
  );
}
