/**
 * A `requests` block from aiperf's own summary, for uploads without profile_export.jsonl.
 * Labelled `source: "aiperf-summary"` so the page can say the numbers are aiperf's, not ours.
 */
import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import type { AiperfSummary, SummaryMetric } from "@/lib/formats/aiperf-summary";
import { isTimeUnit, toMs } from "@/lib/formats/aiperf-units";

function statsOf(block: SummaryMetric | undefined, fallbackCount: number): Stats | null {
  if (!block || block.avg === undefined) return null;
  const conv = (v: number | undefined) =>
    v === undefined ? NaN : isTimeUnit(block.unit) ? toMs(v, block.unit) : v;
  return {
    count: block.count ?? fallbackCount,
    mean: conv(block.avg),
    min: conv(block.min),
    max: conv(block.max),
    p50: conv(block.p50),
    // Older summaries may lack p75: leave it out rather than lose the whole statistics object.
    ...(block.p75 === undefined ? {} : { p75: conv(block.p75) }),
    p90: conv(block.p90),
    p95: conv(block.p95),
    p99: conv(block.p99),
  };
}

/** JSON cannot carry NaN: a stat aiperf did not write becomes null for the whole object. */
function complete(s: Stats | null): Stats | null {
  return s && Object.values(s).every(Number.isFinite) ? s : null;
}

export function requestsFromSummary(summary: AiperfSummary): RequestsBlock | null {
  const m = summary.metrics;
  const ok = m.request_count?.avg;
  if (ok === undefined) return null;
  const errors = m.error_request_count?.avg ?? 0;
  const durationS = m.benchmark_duration
    ? toMs(m.benchmark_duration.avg ?? NaN, m.benchmark_duration.unit ?? "sec") / 1000
    : NaN;
  return {
    source: "aiperf-summary",
    count: ok + errors,
    errorCount: errors,
    warmupCount: 0,
    durationS: Number.isFinite(durationS) ? durationS : null,
    ttftMs: complete(statsOf(m.time_to_first_token, ok)),
    e2eMs: complete(statsOf(m.request_latency, ok)),
    itlMs: complete(statsOf(m.inter_token_latency, ok)),
    inputTokens: complete(statsOf(m.input_sequence_length, ok)),
    outputTokens: complete(statsOf(m.output_sequence_length, ok)),
    requestThroughputPerS: m.request_throughput?.avg ?? null,
    outputTokenThroughputPerS: m.output_token_throughput?.avg ?? null,
    outputTokensTotal: m.total_osl?.avg ?? null,
  };
}
