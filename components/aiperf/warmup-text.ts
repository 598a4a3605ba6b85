import type { RequestsBlock } from "@/lib/api/schemas";
import { formatCount, formatNumber, plural } from "@/lib/format-number";

/** The warm-up count and where it came from (docs/metrics.md §Requests). */
export function warmupText(r: RequestsBlock): string {
  if (r.warmupCount === null) {
    if (r.warmupSource === "tool") return "warm-up not known (the benchmark tool does not write it)";
    if (r.warmupDurationS != null)
      return `warm-up of ${formatNumber(r.warmupDurationS, 1)} s (configured; count not exported)`;
    return "warm-up not known (upload aiperf.log or the JSON summary)";
  }
  const n = plural(r.warmupCount, "warm-up request", "warm-up requests");
  if (r.warmupSource === "config" && r.warmupCount === 0) return "no warm-up (configured)";
  if (r.warmupSource === "config") return `${n} (configured; no warm-up records uploaded)`;
  if (r.warmupSource === "records") return `${n} (records)`;
  const failed = r.warmupErrorCount ? `, ${formatCount(r.warmupErrorCount)} failed` : "";
  if (r.warmupSource === "summary") return `${n} (aiperf summary warmup_metrics${failed})`;
  if (r.warmupSource === "outputs") return `${n} (aiperf outputs.json warmup list)`;
  if (r.warmupSource === "log") return `${n} (aiperf.log warm-up phase${failed})`;
  return n;
}
