import type { Collectors } from "@/lib/api/schemas";

const NAMES: Record<keyof Collectors, string> = {
  returnPerfMetrics: "return_perf_metrics",
  enableIterPerfStats: "enable_iter_perf_stats",
  publishKvEvents: "publish_kv_events",
};

/** Which measurement collectors were on: they change what a run measures (docs/metrics.md §Collectors). */
export function CollectorsBadges({ collectors }: { collectors: Collectors }) {
  return (
    <>
      {(Object.keys(NAMES) as Array<keyof Collectors>).map((k) => {
        const v = collectors[k];
        const text = v === null ? "unknown" : v ? "on" : "off";
        return (
          <span
            key={k}
            className={`rounded px-2 py-0.5 font-mono ring-1 ring-border ${v === null ? "text-muted" : v ? "text-warn" : "text-ok"}`}
            title="Collector state: on means the run paid its measurement overhead"
          >
            {NAMES[k]}: {text}
          </span>
        );
      })}
    </>
  );
}
