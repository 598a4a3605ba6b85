import type { Collectors, RunSummary } from "@/lib/api/schemas";
import { COLLECTOR_FLAGS, effectiveCollectors } from "@/lib/metrics/collectors-mismatch";

/**
 * Which measurement collectors were on: they change what a run measures (docs/metrics.md
 * §Collectors). What the data proves counts (a time breakdown exists only with
 * return_perf_metrics on); a state no file says is shown only on a TensorRT-LLM run, whose flags
 * these are: on an aiperf-only run three "unknown" badges said nothing.
 */
export function CollectorsBadges({
  run,
}: {
  run: Pick<RunSummary, "collectors" | "timeBreakdown" | "facts"> &
    Partial<Pick<RunSummary, "collectorsInferredFrom">>;
}) {
  const states = effectiveCollectors(run);
  const trtllm = run.timeBreakdown !== null || /trt/i.test(run.facts.backend?.value ?? "");
  return (
    <>
      {(Object.keys(COLLECTOR_FLAGS) as Array<keyof Collectors>).map((k) => {
        const { value: v, source, evidence } = states[k];
        if (v === null && !trtllm) return null;
        const text =
          v === null
            ? "unknown"
            : `${v ? "on" : "off"}${source === "inferred" ? " (from the data)" : source === "implied" ? " (inferred from the config)" : ""}`;
        return (
          <span
            key={k}
            className={`rounded px-2 py-0.5 font-mono ring-1 ring-border ${v === null ? "text-muted" : v ? "text-warn" : "text-ok"}`}
            title={evidence ?? "Collector state: on means the run paid its measurement overhead"}
          >
            {/* The flag's own name, as it is set in the engine's configuration */}
            <code>{COLLECTOR_FLAGS[k]}</code>: {text}
          </span>
        );
      })}
    </>
  );
}
