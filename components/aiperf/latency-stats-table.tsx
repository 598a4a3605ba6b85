import { AIPERF_SUCCESSFUL, requestsDefinition } from "@/components/charts/definitions";
import { StatsTable } from "@/components/charts/stats-table";
import type { RequestsBlock } from "@/lib/api/schemas";
import { latencyName } from "@/lib/api/metric-catalog";
import { AIPERF_WORDS, type RequestWords } from "@/lib/metrics/request-words";

type Metric = "ttftMs" | "e2eMs" | "itlMs" | "inputTokens" | "outputTokens";

export const AIPERF_STATS_ROWS: Array<{ key: Metric; label: string; ms: boolean }> = [
  { key: "ttftMs", label: latencyName("ttftMs"), ms: true },
  { key: "e2eMs", label: latencyName("e2eMs"), ms: true },
  { key: "itlMs", label: latencyName("itlMs"), ms: true },
  { key: "inputTokens", label: "Input tokens", ms: false },
  { key: "outputTokens", label: "Output tokens", ms: false },
];

/** The run's request statistics, one row per metric (profiling-phase successful requests). */
export function LatencyStatsTable({
  requests,
  words = AIPERF_WORDS,
  testId = "latency-stats",
}: {
  requests: RequestsBlock;
  /** The view's table keeps the default; a preview of the view names its copy apart */
  testId?: string;
  /** Whose words the rows are in: an imported tool's TPOT is named TPOT */
  words?: RequestWords;
}) {
  return (
    <StatsTable
      testId={testId}
      rows={AIPERF_STATS_ROWS.map((r) => ({
        id: r.key,
        label: r.key === "itlMs" ? words.itl.label : r.label,
        ms: r.ms,
        stats: requests[r.key],
      }))}
      definition={
        words.producer !== AIPERF_WORDS.producer
          ? requestsDefinition(words.producer, requests.source)
          : requests.source === "aiperf-summary"
            ? { ...AIPERF_SUCCESSFUL, method: "aiperf's own summary statistics (no records uploaded)" }
            : requests.recordsSample
              ? {
                  ...AIPERF_SUCCESSFUL,
                  method: `aiperf's own summary statistics of every request (the records uploaded hold ${requests.recordsSample.records} of ${requests.recordsSample.described})`,
                }
              : AIPERF_SUCCESSFUL
      }
    />
  );
}
