/**
 * The warm-up count of an aiperf run (docs/metrics.md §Requests), from the first of: warm-up
 * records; the summary's `warmup_metrics` (schema 1.4+, request_count + error_request_count);
 * aiperf.log's warm-up phase; the configuration recorded in its summary. aiperf builds that send
 * warm-up requests without exporting them would otherwise read "0 warmup" for a run that did warm
 * the server up. Where none of them says, the count is unknown: null, never 0.
 */
import type { RequestsBlock } from "@/lib/api/schemas";
import type { AiperfLog } from "@/lib/formats/aiperf-log";
import type { SummaryMetric } from "@/lib/formats/aiperf-summary";
import type { WarmupConfig } from "@/lib/formats/aiperf-warmup-config";

/** A warm-up size aiperf itself reported (summary or log), errors counted in */
export interface ReportedWarmup {
  count: number;
  errors: number | null;
  source: "summary" | "outputs" | "log";
}

/** Schema 1.4's `warmup_metrics`: successful plus failed warm-up requests, as aiperf counts them. */
export function warmupFromSummary(metrics: Record<string, SummaryMetric> | null): ReportedWarmup | null {
  const ok = metrics?.request_count?.avg;
  const errors = metrics?.error_request_count?.avg;
  if (ok === undefined && errors === undefined) return null;
  return { count: (ok ?? 0) + (errors ?? 0), errors: errors ?? 0, source: "summary" };
}

/**
 * outputs.json (its schema 1.1) lists warm-up responses apart, in `warmup`: its length is the
 * warm-up size (errors not told apart). A file without the list (schema 1.0) says nothing.
 */
export function warmupFromOutputs(warmup: number | null): ReportedWarmup | null {
  return warmup === null ? null : { count: warmup, errors: null, source: "outputs" };
}

/**
 * aiperf.log's "Phase warmup complete | completed=N, cancelled=C, errors=E": N requests came back
 * (aiperf's returned credits, the failed ones among them), E of them errors.
 */
export function warmupFromLog(log: AiperfLog | null): ReportedWarmup | null {
  const p = log?.phases.warmup;
  if (!p || p.completed === null) return null;
  return { count: p.completed, errors: p.errors, source: "log" };
}

/**
 * `configs`: one entry per trial whose configuration is known (a pooled multi-trial upload warmed
 * up once per trial), null for a configuration without warm-up. Records win whenever they hold
 * any warm-up, then what aiperf reported. With neither records, a report nor a configuration
 * (records or a CSV summary alone) the count is unknown: null, never 0.
 */
export function withConfiguredWarmup(
  block: RequestsBlock,
  configs: ReadonlyArray<WarmupConfig | null>,
  reported: ReportedWarmup | null = null,
): RequestsBlock {
  if (block.warmupCount !== null && block.warmupCount > 0) return { ...block, warmupSource: "records" };
  if (reported)
    return {
      ...block,
      warmupCount: reported.count,
      warmupSource: reported.source,
      warmupErrorCount: reported.errors,
    };
  const warm = configs.filter((c) => c !== null);
  if (warm.length === 0) {
    if (configs.length > 0) return { ...block, warmupCount: 0, warmupSource: "config" };
    return { ...block, warmupCount: null, warmupSource: undefined };
  }
  let requests: number | null = 0;
  let durationS: number | null = null;
  for (const c of warm) {
    requests = requests === null || c.requests === null ? null : requests + c.requests;
    if (c.durationS !== null) durationS = (durationS ?? 0) + c.durationS;
  }
  return { ...block, warmupCount: requests, warmupSource: "config", warmupDurationS: durationS };
}
