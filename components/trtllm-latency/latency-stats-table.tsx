import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { StatsTable } from "@/components/charts/stats-table";
import type { TimeBreakdownBlock } from "@/lib/api/schemas";
import { missingText, TRTLLM_LATENCY_OPTIONS } from "./latency-definitions";

type Latency = NonNullable<TimeBreakdownBlock["latency"]>;

/**
 * TTFT, E2E and TPOT statistics of a TensorRT-LLM run. A metric no request recorded gets no row
 * of blanks: one line under the table names it and says what would record it.
 */
export function TrtllmLatencyStatsTable({
  latency,
  testId = "trtllm-latency-stats",
}: {
  latency: Latency;
  /** The view's table keeps the default; a preview of the view names its copy apart */
  testId?: string;
}) {
  const rows = TRTLLM_LATENCY_OPTIONS.filter((o) => latency[o.id] !== null);
  const missing = TRTLLM_LATENCY_OPTIONS.filter((o) => latency[o.id] === null);
  return (
    <StatsTable
      testId={testId}
      rows={rows.map((o) => ({ id: o.id, label: `${o.label} (${o.short})`, ms: true, stats: latency[o.id] }))}
      definition={TRTLLM_COMPLETED}
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
