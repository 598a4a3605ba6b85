import { DataTable, type Column } from "@/components/charts/data-table";
import type { Stats, TimeBreakdownBlock } from "@/lib/api/schemas";
import { timeUnitFor } from "@/lib/format-number";
import { missingText, TRTLLM_LATENCY_OPTIONS } from "./latency-definitions";

type Row = (typeof TRTLLM_LATENCY_OPTIONS)[number];
type Latency = NonNullable<TimeBreakdownBlock["latency"]>;

const COLS: Array<keyof Stats> = ["count", "mean", "p50", "p75", "p90", "p95", "p99", "min", "max"];

/**
 * TTFT, E2E and TPOT statistics of a TensorRT-LLM run. A metric no request recorded gets no row
 * of blanks: one line under the table names it and says what would record it.
 */
export function TrtllmLatencyStatsTable({ latency }: { latency: Latency }) {
  const value = (s: Stats | null, c: keyof Stats) => {
    if (!s) return "";
    if (c === "count") return s.count.toLocaleString("en-US");
    // One unit per row: a p99 of 12.05 s beside a p50 of 6,726.7 ms misreads.
    return timeUnitFor(COLS.map((k) => (k === "count" ? null : s[k]))).format(s[c] ?? null);
  };
  const rows = TRTLLM_LATENCY_OPTIONS.filter((o) => latency[o.id] !== null);
  const missing = TRTLLM_LATENCY_OPTIONS.filter((o) => latency[o.id] === null);
  const columns: Array<Column<Row>> = [
    { header: "Metric", cell: (r) => `${r.label} (${r.short})` },
    ...COLS.map((c) => ({
      header: c,
      num: true,
      cell: (r: Row) => value(latency[r.id], c),
      attrs: (r: Row) => ({ "data-stat": `${r.id}-${c}` }),
    })),
  ];
  return (
    <DataTable
      framed
      testId="trtllm-latency-stats"
      rows={rows}
      columns={columns}
      rowKey={(r) => r.id}
      after={
        missing.length > 0 ? (
          <p className="px-3 pb-2 text-xs text-muted" data-testid="trtllm-latency-not-recorded">
            Not recorded: {missing.map((m) => `${m.short} (${missingText(m.id)})`).join("; ")}.
          </p>
        ) : null
      }
    />
  );
}
