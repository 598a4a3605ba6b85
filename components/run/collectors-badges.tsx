import type { RunSummary } from "@/lib/api/schemas";
import { collectorTexts } from "@/lib/metrics/collectors-mismatch";

/**
 * Which measurement collectors were on: they change what a run measures (docs/metrics.md
 * §Collectors). What the data proves counts (a time breakdown exists only with
 * return_perf_metrics on); they are TensorRT-LLM settings, so they are shown only on a run whose
 * files could say them, "not in these files" where they do not (collectorTexts): on an aiperf-only
 * run three "unknown" badges said nothing.
 */
export function CollectorsBadges({
  run,
}: {
  run: Pick<RunSummary, "collectors" | "timeBreakdown" | "facts"> &
    Partial<Pick<RunSummary, "collectorsInferredFrom">>;
}) {
  return (
    <>
      {collectorTexts(run).map(({ key, flag, text, state: { value: v, evidence } }) => (
        <span
          key={key}
          className={`rounded px-2 py-0.5 font-mono ring-1 ring-border ${v === null ? "text-muted" : v ? "text-warn" : "text-ok"}`}
          title={evidence ?? "Collector state: on means the run paid its measurement overhead"}
        >
          {/* The flag's own name, as it is set in the engine's configuration */}
          <code>{flag}</code>: {text}
        </span>
      ))}
    </>
  );
}
