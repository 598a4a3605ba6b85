import { DataTable, type Column } from "@/components/charts/data-table";
import { AIPERF_SUCCESSFUL, definitionText } from "@/components/charts/definitions";
import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import { formatNumber, timeUnitFor } from "@/lib/format-number";

type Metric = "ttftMs" | "e2eMs" | "itlMs" | "inputTokens" | "outputTokens";

const ROWS: Array<{ key: Metric; label: string; ms: boolean }> = [
  { key: "ttftMs", label: "Time to first token", ms: true },
  { key: "e2eMs", label: "End-to-end latency", ms: true },
  { key: "itlMs", label: "Inter-token latency", ms: true },
  { key: "inputTokens", label: "Input tokens", ms: false },
  { key: "outputTokens", label: "Output tokens", ms: false },
];
const COLS: Array<keyof Stats> = ["count", "mean", "p50", "p75", "p90", "p95", "p99", "min", "max"];

/** The run's request statistics, one row per metric (profiling-phase successful requests). */
export function LatencyStatsTable({ requests }: { requests: RequestsBlock }) {
  const value = (key: Metric, ms: boolean, c: keyof Stats) => {
    const s = requests[key];
    if (!s) return "—";
    if (c === "count") return s.count.toLocaleString("en-US");
    // One unit per row: a p99 of 12.05 s beside a p50 of 6,726.7 ms misreads.
    return ms
      ? timeUnitFor(COLS.map((k) => (k === "count" ? null : s[k]))).format(s[c])
      : formatNumber(s[c], 1);
  };
  const columns: Array<Column<(typeof ROWS)[number]>> = [
    { header: "Metric", cell: (r) => r.label },
    ...COLS.map((c) => ({
      header: c,
      num: true,
      cell: (r: (typeof ROWS)[number]) => value(r.key, r.ms, c),
      attrs: (r: (typeof ROWS)[number]) => ({ "data-stat": `${r.key}-${c}` }),
    })),
  ];
  return (
    <DataTable
      framed
      testId="latency-stats"
      rows={ROWS}
      columns={columns}
      rowKey={(r) => r.key}
      after={
        <p className="px-3 pb-2 text-xs text-muted" data-testid="latency-stats-definition">
          {definitionText(
            requests.source === "aiperf-summary"
              ? { ...AIPERF_SUCCESSFUL, method: "aiperf's own summary statistics (no records uploaded)" }
              : AIPERF_SUCCESSFUL,
          )}
          ; one time unit per row.
        </p>
      }
    />
  );
}
