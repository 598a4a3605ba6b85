import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import { formatMs, formatNumber } from "@/lib/format-number";

const ROWS: Array<{
  key: "ttftMs" | "e2eMs" | "itlMs" | "inputTokens" | "outputTokens";
  label: string;
  ms: boolean;
}> = [
  { key: "ttftMs", label: "Time to first token", ms: true },
  { key: "e2eMs", label: "End-to-end latency", ms: true },
  { key: "itlMs", label: "Inter-token latency", ms: true },
  { key: "inputTokens", label: "Input tokens", ms: false },
  { key: "outputTokens", label: "Output tokens", ms: false },
];
const COLS: Array<keyof Stats> = ["count", "mean", "p50", "p90", "p95", "p99", "min", "max"];

/** The run's request statistics, one row per metric (profiling-phase successful requests). */
export function LatencyStatsTable({ requests }: { requests: RequestsBlock }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base" data-testid="latency-stats">
        <thead>
          <tr>
            <th>Metric</th>
            {COLS.map((c) => (
              <th key={c} className="num">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map(({ key, label, ms }) => {
            const s = requests[key];
            return (
              <tr key={key}>
                <td>{label}</td>
                {COLS.map((c) => (
                  <td key={c} className="num" data-stat={`${key}-${c}`}>
                    {!s
                      ? "—"
                      : c === "count"
                        ? s.count.toLocaleString("en-US")
                        : ms
                          ? formatMs(s[c])
                          : formatNumber(s[c], 1)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
