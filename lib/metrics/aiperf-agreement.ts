/**
 * Compares Runlens's statistics with aiperf's own summary. Both use linear-interpolated
 * percentiles, so on the same records they agree up to rounding: JSON values are full floats,
 * the CSV rounds to 2 decimals — hence an absolute tolerance of 0.005 (+ float noise). A
 * difference beyond that means the two files do not describe the same records (a truncated
 * profile_export.jsonl, a different trial, a filtered upload).
 */
import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import type { AiperfSummary, SummaryMetric } from "@/lib/formats/aiperf-summary";
import { isTimeUnit, toMs } from "@/lib/formats/aiperf-units";
import type { AgreementRow } from "@/lib/api/aiperf-charts";

const COMPARED: Array<{ tag: string; label: string; ours: keyof RequestsBlock }> = [
  { tag: "time_to_first_token", label: "TTFT (ms)", ours: "ttftMs" },
  { tag: "request_latency", label: "End-to-end latency (ms)", ours: "e2eMs" },
  { tag: "inter_token_latency", label: "Inter-token latency (ms)", ours: "itlMs" },
  { tag: "input_sequence_length", label: "Input tokens", ours: "inputTokens" },
  { tag: "output_sequence_length", label: "Output tokens", ours: "outputTokens" },
];
/**
 * aiperf's window figures beside the records' (first request to last response): they differ when
 * aiperf divides by a longer window, e.g. the profiling phase's wall time, with the same records.
 */
export const WINDOW_ROWS = [
  "Benchmark duration (s)",
  "Request throughput (requests/s)",
  "Output token throughput (tokens/s)",
] as const;
const isWindowRow = (r: AgreementRow) => (WINDOW_ROWS as readonly string[]).includes(r.metric);

/** Our stat name → aiperf's (aiperf calls the mean `avg`). */
export const SUMMARY_STATS: Array<[keyof Stats, keyof SummaryMetric]> = [
  ["count", "count"],
  ["mean", "avg"],
  ["min", "min"],
  ["max", "max"],
  ["p50", "p50"],
  ["p75", "p75"],
  ["p90", "p90"],
  ["p95", "p95"],
  ["p99", "p99"],
];

export function withinRounding(ours: number, theirs: number): boolean {
  return Math.abs(ours - theirs) <= 0.005 + 1e-9 * Math.max(1, Math.abs(theirs));
}

function theirValue(block: SummaryMetric, stat: keyof SummaryMetric): number | undefined {
  const raw = block[stat];
  if (typeof raw !== "number") return undefined;
  return stat !== "count" && isTimeUnit(block.unit) ? toMs(raw, block.unit) : raw;
}

/** `window: false` leaves out the duration and rate rows (a caller that compares its own). */
export function compareWithSummary(
  ours: RequestsBlock,
  summary: AiperfSummary,
  { window: withWindow = true }: { window?: boolean } = {},
): AgreementRow[] {
  const rows: AgreementRow[] = [];
  const push = (metric: string, stat: string, o: number | null, a: number) =>
    rows.push({ metric, stat, ours: o, aiperf: a, agrees: o !== null && withinRounding(o, a) });

  const successful = ours.count - ours.errorCount;
  const reqCount = summary.metrics.request_count?.avg;
  if (reqCount !== undefined) push("Requests (successful)", "count", successful, reqCount);
  const errCount = summary.metrics.error_request_count?.avg;
  if (errCount !== undefined) push("Requests (errors)", "count", ours.errorCount, errCount);

  const m = summary.metrics;
  const d = m.benchmark_duration;
  const durationS = d?.avg !== undefined ? toMs(d.avg, d.unit ?? "sec") / 1000 : undefined;
  const window: Array<[string, number | null | undefined, number | undefined]> = [
    [WINDOW_ROWS[0], ours.durationS, durationS],
    [WINDOW_ROWS[1], ours.requestThroughputPerS, m.request_throughput?.avg],
    [WINDOW_ROWS[2], ours.outputTokenThroughputPerS, m.output_token_throughput?.avg],
  ];
  if (withWindow) for (const [label, o, a] of window) if (a !== undefined) push(label, "value", o ?? null, a);

  for (const { tag, label, ours: key } of COMPARED) {
    const block = summary.metrics[tag];
    if (!block) continue;
    const stats = ours[key] as Stats | null;
    for (const [mine, theirs] of SUMMARY_STATS) {
      const a = theirValue(block, theirs);
      if (a === undefined) continue;
      push(label, mine, stats?.[mine] ?? null, a);
    }
  }
  return rows;
}

/** A records file that holds part of the requests its summary describes. */
export interface RecordsSample {
  /** Profiling requests in the records, errors included */
  records: number;
  /** Requests the summary describes: its request_count plus error_request_count */
  described: number;
}

/**
 * Fewer records than the summary counts is a known sample (aiperf's records file truncated or
 * cut for sharing), not a disagreement: every statistic of a sample differs from the whole, so
 * listing them as differences would bury a real one. Equal counts with different values, or more
 * records than the summary counts, stay disagreements.
 */
export function recordsSample(ours: RequestsBlock, summary: AiperfSummary): RecordsSample | null {
  const successful = summary.metrics.request_count?.avg;
  if (successful === undefined) return null;
  const described = successful + (summary.metrics.error_request_count?.avg ?? 0);
  return ours.count < described ? { records: ours.count, described } : null;
}

const fmt = (v: number | null) => (v === null ? "none" : Number(v.toPrecision(6)).toString());

/** One line for the run's warnings; null when everything agrees. */
export function disagreementWarning(rows: AgreementRow[], source: string): string | null {
  const bad = rows.filter((r) => !r.agrees && !isWindowRow(r));
  if (bad.length === 0) return windowWarning(rows, source);
  const shown = bad
    .slice(0, 3)
    .map((r) => `${r.metric} ${r.stat} ${fmt(r.ours)} here vs ${fmt(r.aiperf)} in aiperf`)
    .join("; ");
  return `aiperf summary disagrees: ${bad.length} of ${rows.length} statistics differ beyond rounding (${source}): ${shown}${bad.length > 3 ? "; and more" : ""}. The two files may not describe the same requests (another trial, an edited or filtered file).`;
}

/**
 * Same requests, another window: the statistics agree but aiperf's duration and rates do not.
 * The run shows aiperf's rates (lib/metrics/aiperf-run-result.ts), and says why they differ.
 */
function windowWarning(rows: AgreementRow[], source: string): string | null {
  const bad = rows.filter((r) => !r.agrees && isWindowRow(r));
  if (bad.length === 0) return null;
  const shown = bad
    .map((r) => `${r.metric} ${fmt(r.ours)} over the records vs ${fmt(r.aiperf)} in aiperf`)
    .join("; ");
  return `aiperf's benchmark window differs from the records' span (first request to last response) (${source}): ${shown}. The run shows aiperf's requests/s and tokens/s; every latency statistic agrees.`;
}
