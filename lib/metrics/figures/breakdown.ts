/**
 * The Breakdown view's figures of TensorRT-LLM perf metrics, as renderer-neutral descriptions
 * (lib/api/figure.ts): the per-request breakdown (stacked columns, one per sampled request, in the
 * segments' colours) and the KV transfer bandwidth histogram. The view
 * (components/run-views/breakdown-view.tsx and its request section) and the offline report both
 * draw them.
 */
import { TRTLLM_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import { METRICS } from "@/lib/api/metric-catalog";
import { roleToken, segmentToken, TRTLLM_COMPLETED, type FigureDescription } from "@/lib/api/figure";
import type { KvHitRatePayload, RequestSample, SegmentScope, ValueScale } from "@/lib/api/trtllm-charts";
import { formatCount, formatRate, plural } from "@/lib/format-number";
import { segmentWords } from "@/lib/metrics/segment-words";
import { inScope, NOT_RECORDED_KEY, requestBarRows } from "@/lib/metrics/trtllm-chart-rows";

/**
 * One stacked column per sampled request (in the sample's order), its segments in `scope`
 * stacked; a segment the request did not record is a null point (named "not recorded"), one
 * another segment covers is no point.
 */
export function requestBreakdownFigure(
  sample: RequestSample,
  scope: SegmentScope,
  scale: ValueScale = "linear",
): FigureDescription {
  const rows = requestBarRows(sample, scope);
  const names = sample.segmentNames.filter((n) => inScope(n, scope));
  const gaps = rows.filter((r) => (r[NOT_RECORDED_KEY] as string[]).length > 0).length;
  const what =
    scope === "ttft"
      ? "ms per segment up to the first token (decode left out, so each bar is TTFT)"
      : "ms per segment";
  const count =
    rows.length < sample.total
      ? `${formatCount(rows.length)} of ${plural(sample.total, "request")} (evenly sampled)`
      : plural(sample.total, "request");
  return {
    id: "trtllm-request-bars",
    exportName: "per-request-breakdown",
    kind: "stacked",
    title: "Per-request breakdown",
    description: `${count}, ${what}${scale === "log" ? "; log axis: bar tops are true, band heights are not proportional" : ""}${gaps ? `. ${plural(gaps, "request")} ${gaps === 1 ? "has" : "have"} segments not recorded: missing from the bar, named in the tooltip` : ""}`,
    definition: TRTLLM_COMPLETED,
    missing:
      "It needs per-request segment times: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on.",
    x: { label: "requests (sampled, in the chosen order)", unit: "" },
    y: { label: scope === "ttft" ? "time to first token" : "time", unit: "ms" },
    categories: rows.map((r) => String(r.label)),
    series: names.map((n) => ({
      key: n,
      name: segmentWords(n),
      colour: segmentToken(n),
      points: rows.flatMap((r, i): Array<readonly [number, number | null]> =>
        typeof r[n] === "number"
          ? [[i, r[n] as number] as const]
          : (r[NOT_RECORDED_KEY] as string[]).includes(n)
            ? [[i, null] as const]
            : [],
      ),
    })),
    legend: false,
  };
}

/** Per-request KV-cache transfer bandwidth: kv_cache_size over the transfer's duration, binned. */
export function kvTransferBandwidthFigure(
  payload: ChartPayload<typeof TRTLLM_CHARTS.kvTransferBandwidth>,
): FigureDescription {
  const { bins } = payload;
  const bandwidth = METRICS.kvTransferBandwidth;
  return {
    id: TRTLLM_CHARTS.kvTransferBandwidth.key,
    exportName: "kv-transfer-bandwidth",
    kind: "histogram",
    title: bandwidth.label,
    description: `${plural(payload.count, "transfer")}, ctx → gen worker, per request: kv_cache_size / transfer time (bytes over time, not over the run), GB/s = 10⁹ bytes/s`,
    definition: {
      ...TRTLLM_COMPLETED,
      requests: "requests whose transfer has both its bytes and its duration",
      method: "bytes / transfer time per request (the link while it moved), not bytes / run time",
    },
    missing:
      "No KV transfer has both its bytes and its duration: it needs disaggregated TensorRT-LLM perf metrics with KV transfer timings.",
    // The axis spans the bins' edges: on an automatic domain the first bar, centred on its bin's
    // middle, reached left over the y-axis ticks.
    x: {
      label: "transfer bandwidth",
      unit: bandwidth.unit,
      ...(bins.length ? { domain: [bins[0].lo, bins[bins.length - 1].hi] as const } : {}),
    },
    y: { label: "transfers", unit: "", integers: true },
    series: [
      {
        key: "count",
        name: "transfers",
        colour: segmentToken("gen_kv_transfer"),
        points: bins.map((b) => [(b.lo + b.hi) / 2, b.count] as const),
      },
    ],
    bins,
    marks: payload.stats ? [{ x: payload.stats.p50, label: "p50", colour: "fg" }] : [],
    legend: false,
  };
}

/**
 * Block-weighted KV-cache hit rate per role ("all prefill") and per worker file, in %, each bar in
 * its role's colour; a worker that looked up no block has no bar ("not recorded"), never a 0 %.
 * A row with no bar says why beside its name: a decode worker of a disaggregated run has no context
 * phase (its prefix was looked up on the prefill side), another looked up no block or recorded none.
 */
export function kvHitRateFigure(payload: KvHitRatePayload): FigureDescription {
  const rows = [
    ...payload.byRole.map((r) => ({ ...r, name: `all ${r.role}` })),
    ...payload.byWorker.map((w) => ({ ...w, name: w.worker })),
  ];
  // Records with kv_cache_metrics whose blocks are all 0: looked up nothing, which is not "absent".
  const zeroLookups =
    rows.some((r) => r.requests > 0) && rows.every((r) => r.reusedBlocks + r.missedBlocks === 0);
  // A decode worker of a disaggregated run (one with a prefill side) has no context phase: the
  // prefix was looked up on the prefill side, so whatever its records carry is no hit rate. A rate
  // the payload leaves out (absent, or null) is none either.
  const disagg = rows.some((r) => r.role === "prefill");
  const rate = (r: (typeof rows)[number]) =>
    disagg && r.role === "decode" ? null : typeof r.hitRate === "number" ? r.hitRate : null;
  const why = (r: (typeof rows)[number]): string | null =>
    rate(r) !== null
      ? null
      : r.role === "decode"
        ? "n/a (decode)"
        : r.requests > 0 && r.reusedBlocks + r.missedBlocks === 0
          ? "n/a (0 lookups)"
          : "n/a (not recorded)";
  const notes = rows.map(why);
  const decodeBlank = rows.some((r) => r.role === "decode" && rate(r) === null);
  return {
    id: TRTLLM_CHARTS.kvHitRate.key,
    exportName: "kv-hit-rate",
    kind: "bars",
    title: "KV-cache hit rate by role and worker",
    description: `Σ reused / Σ (reused + missed) blocks; run (prefill side): ${payload.run !== null ? formatRate(payload.run) : zeroLookups ? "0 block lookups" : "not recorded"}${decodeBlank ? "; decode workers report no context phase, so no hit rate (n/a)" : ""}`,
    definition: {
      ...TRTLLM_COMPLETED,
      method: "blocks from each request's kv_cache_metrics, summed before dividing (block-weighted)",
    },
    missing: zeroLookups
      ? "Every record's kv_cache_metrics has 0 reused and 0 missed blocks: no block was looked up for reuse (block reuse off, or nothing to reuse), so there is no hit rate, not a 0 % one."
      : "The perf metrics carry no kv_cache_metrics: TensorRT-LLM writes them with return_perf_metrics on.",
    x: { label: "worker", unit: "" },
    y: { label: "hit rate", unit: "%", domain: [0, 100] },
    categories: rows.map((r) => r.name),
    categoryColours: rows.map((r) => roleToken(r.role)),
    ...(notes.some(Boolean) ? { categoryNotes: notes } : {}),
    shortNames: 28,
    tableColumns: [
      { label: "role", values: rows.map((r) => r.role) },
      { label: "requests", values: rows.map((r) => r.requests) },
      { label: "reused blocks", values: rows.map((r) => r.reusedBlocks) },
      { label: "missed blocks", values: rows.map((r) => r.missedBlocks) },
    ],
    series: [
      {
        key: "hitRate",
        name: "hit rate",
        colour: "chart-1",
        points: rows.map((r, i) => {
          const v = rate(r);
          return [i, v === null ? null : v * 100] as const;
        }),
      },
    ],
    legend: false,
  };
}
