/**
 * The Breakdown view's segment figures of TensorRT-LLM perf metrics, as renderer-neutral
 * descriptions (lib/api/figure.ts): the segments stacked at a statistic (one bar per statistic,
 * its total "Σ" past its end) and each segment's share of the request time over the run. The view
 * (components/run-views/breakdown-view.tsx) and the offline report both draw them.
 */
import { TRTLLM_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import { segmentToken, TRTLLM_COMPLETED, type FigureDescription } from "@/lib/api/figure";
import type { SegmentScope, Statistic, ValueScale } from "@/lib/api/trtllm-charts";
import { formatCount, formatNumber } from "@/lib/format-number";
import { MIN_BAR_PX } from "@/lib/metrics/bar-labels";
import { segmentWords } from "@/lib/metrics/segment-words";
import { inScope, segmentShareRows, segmentStatRows } from "@/lib/metrics/trtllm-chart-rows";

const MISSING_SEGMENTS =
  "The perf metrics carry no segment timings: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on.";

/**
 * The segments in `scope`, one stacked bar per statistic of `stats`, in pipeline order. Each
 * segment's statistic is taken over its own requests, so a stack is a profile, its total (written
 * "Σ" past its end) a sum of statistics, not the statistic of the total. A segment not recorded in
 * any request is a null point: no band, named in the description and the table, never 0 ms.
 */
export function segmentStatsFigure(
  payload: ChartPayload<typeof TRTLLM_CHARTS.segments>,
  stats: readonly Statistic[],
  scope: SegmentScope,
  scale: ValueScale = "linear",
): FigureDescription {
  const byStat = stats.map((s) => segmentStatRows(payload, s).filter((r) => inScope(r.name, scope)));
  const rows = byStat[0] ?? [];
  const missing = rows.filter((r, i) => byStat.every((b) => b[i]?.valueMs === null)).map((r) => r.name);
  const which = stats.join(", ");
  const note = missing.length ? `; not recorded in this run: ${missing.map(segmentWords).join(", ")}` : "";
  const over =
    payload.requestCount === 1 ? "the 1 request" : `the ${formatCount(payload.requestCount)} requests`;
  // A sum of tails is not the tail of the sum: at p99 the stack ran past the run's E2E p99.
  const tails = stats.filter((s) => s !== "mean");
  const caveat = tails.length
    ? `. A stack of ${tails.join(" or ")}s is not the ${tails.length > 1 ? "percentile" : tails[0]} of the total (Σ at its end): it can run past the run's ${scope === "ttft" ? "TTFT" : "E2E"} ${tails.length > 1 ? "percentiles" : tails[0]}`
    : "; Σ at its end";
  return {
    id: TRTLLM_CHARTS.segments.key,
    exportName: `time-breakdown-${scope === "ttft" ? "ttft-" : ""}${scale === "log" ? "log-" : ""}${stats.join("-")}`,
    kind: "stacked",
    horizontal: true,
    stackTotal: "Σ",
    title:
      scope === "ttft" ? `Where the time to first token goes (${which})` : `Where the time goes (${which})`,
    description: `ms per segment over ${over} (${payload.mode})${scope === "ttft" ? ", decode left out" : ""}${note}${caveat}`,
    definition: {
      ...TRTLLM_COMPLETED,
      // The drawing's one liberty, said where it is read (lib/metrics/bar-labels.ts stackBandsPx).
      method: `each segment's statistic over the requests that recorded it (server stamps)${scale === "log" ? "" : `; a band under ${MIN_BAR_PX} px is drawn at least ${MIN_BAR_PX} px wide, the room taken from the longest band, so the bar still ends at Σ`}`,
    },
    missing: MISSING_SEGMENTS,
    x: { label: "statistic", unit: "" },
    // The same log axis as the per-request stacks, from the power of ten below the first band's end.
    y: { label: "time at the statistic", unit: "ms", logOption: true },
    categories: [...stats],
    tableBySeries: {
      label: "segment",
      // The upstream span name after the words, as the view's segment table writes it under them.
      columns: [
        { label: "requests recorded", values: rows.map((r) => r.count) },
        { label: "upstream name", values: rows.map((r) => r.name) },
      ],
    },
    series: rows.map((r, si) => ({
      key: r.name,
      name: segmentWords(r.name),
      colour: segmentToken(r.name),
      points: byStat.map((b, i) => [i, b[si]?.valueMs ?? null] as const),
    })),
    legend: false,
  };
}

/**
 * Each segment's mean as a share of the mean segments' sum (of TTFT's with `scope` "ttft"), per
 * bucket of arrival times, the bands stacked to 100 %; a bucket where a segment was not recorded
 * has no band of it (null), never 0 %.
 */
export function segmentShareFigure(
  payload: ChartPayload<typeof TRTLLM_CHARTS.segmentShare>,
  scope: SegmentScope,
): FigureDescription {
  const rows = segmentShareRows(payload, scope);
  // A segment recorded in no bucket has no band at all.
  const names = payload.segmentNames.filter((n) => inScope(n, scope) && rows.some((r) => r[n] !== undefined));
  const of = scope === "ttft" ? "TTFT segments (decode left out)" : "segments";
  const bucketS = payload.bucketMs / 1000;
  return {
    id: TRTLLM_CHARTS.segmentShare.key,
    exportName: "segment-share-over-time",
    kind: "line",
    bands: true,
    step: true,
    // Each bucket's band holds until the next; the last one until its own end.
    ...(rows.length ? { stepEnd: rows[rows.length - 1].startS + bucketS } : {}),
    title: "Segment share over time",
    description: `Mean ${of} as a share of their sum, per ${formatNumber(bucketS, 3)} s of arrivals; a missing band = not recorded in that bucket`,
    definition: { ...TRTLLM_COMPLETED, method: "mean of each segment per bucket of arrival times" },
    missing:
      "It needs per-request segment times in at least two buckets of arrivals: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on.",
    x: { label: "arrival time", unit: "s" },
    y: { label: scope === "ttft" ? "share of TTFT" : "share of request time", unit: "%", domain: [0, 100] },
    series: names.map((n) => ({
      key: n,
      name: segmentWords(n),
      colour: segmentToken(n),
      points: rows.map((r) => [r.startS, r[n] === undefined ? null : r[n] * 100] as const),
    })),
    legend: false,
  };
}
