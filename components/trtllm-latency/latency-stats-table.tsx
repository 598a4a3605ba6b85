import { DataTable, type Column } from "@/components/charts/data-table";
import type { Stats, TimeBreakdownBlock } from "@/lib/api/schemas";
import { formatMs } from "@/lib/format-number";
import { TRTLLM_LATENCY_OPTIONS } from "./latency-definitions";

type Row = (typeof TRTLLM_LATENCY_OPTIONS)[number];
type Latency = NonNullable<TimeBreakdownBlock["latency"]>;

const COLS: Array<keyof Stats> = ["count", "mean", "p50", "p75", "p90", "p95", "p99", "min", "max"];

/** TTFT, E2E and TPOT statistics of a TensorRT-LLM run; a metric no request recorded says so. */
export function TrtllmLatencyStatsTable({ latency }: { latency: Latency }) {
  const value = (s: Stats | null, c: keyof Stats) => {
    if (!s) return c === "count" ? "0" : "not recorded";
    if (c === "count") return s.count.toLocaleString("en-US");
    return formatMs(s[c] ?? null);
  };
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
      rows={TRTLLM_LATENCY_OPTIONS}
      columns={columns}
      rowKey={(r) => r.id}
    />
  );
}
