/**
 * The TensorRT-LLM charts whose only inputs are per-request columns, each with the one function
 * that computes it: the ingest's summary (./trtllm-summary.ts) and the chart route's read of a
 * run's request file (lib/runs/column-charts.ts) call the same one over the same columns, so a
 * chart's numbers have one home (docs/architecture.md §How a chart is computed).
 */
import { TRTLLM_CHARTS, type ChartDef, type ChartPayload } from "@/lib/api/chart-catalog";
import { CHART_COMPUTE_VERSION } from "@/lib/api/chart-version";
import type { HistogramPayload, SegmentSharePayload } from "@/lib/api/trtllm-charts";
import { computeStatsInSteps, PASS_STEP } from "./stats";
import type { Steps } from "./steps";
import { type SegmentColumns, segmentsFor } from "./time-breakdown";
import { histogram } from "./trtllm-kv";
import type { TrtllmLatencyColumns } from "./trtllm-latency";

/** The version of the code below: the charts' compute version (`CHART_COMPUTE_VERSION`, raised there). */
export const TRTLLM_COLUMN_COMPUTE_VERSION = CHART_COMPUTE_VERSION;

/** A run's requests as columns, in the run's request order (idx). */
export interface TrtllmRequestColumns {
  /** Arrival in ms from the run's first request (the stored `arrival_ms`); NaN: not recorded */
  arrivalMs: Float64Array;
  /** TTFT, E2E and TPOT (the stored `ttft_ms`, `e2e_ms`, and TPOT from them and the output tokens) */
  latency: TrtllmLatencyColumns;
  /** KV transfer bandwidth in GB/s (the stored `kv_bandwidth_gbps`); NaN: none */
  kvBandwidthGBps: Float64Array;
  /** Each segment's duration (the stored `segments_json`) */
  segments: SegmentColumns;
}

/** What a chart reads of the columns; the read fills only these. */
export type TrtllmColumnInput = keyof TrtllmRequestColumns;

export interface TrtllmColumnChart<C extends ChartDef = ChartDef> {
  chart: C;
  inputs: readonly TrtllmColumnInput[];
  compute(columns: TrtllmRequestColumns): Steps<ChartPayload<C>>;
}

/** Arrival buckets of the segment-share chart: enough to see drift, far below the 2,000-point cap. */
const MAX_SHARE_BUCKETS = 120;

/** Mean duration of each segment per arrival bucket (docs/metrics.md §Time breakdown). */
export function segmentShare(arrivals: Float64Array, segments: SegmentColumns): SegmentSharePayload {
  const names = segmentsFor(segments.mode).map((s) => s.name);
  let maxMs = 0;
  // An absurd arrival stamp (±Infinity after unit conversion) has no bucket: it is left out.
  for (const a of arrivals) if (a > maxMs && Number.isFinite(a)) maxMs = a;
  const bucketCount = Math.max(1, Math.min(MAX_SHARE_BUCKETS, Math.ceil(arrivals.length / 20)));
  const bucketMs = maxMs > 0 ? maxMs / bucketCount : 1;
  const sums = Array.from({ length: bucketCount }, () => names.map(() => ({ sum: 0, n: 0 })));
  const counts = new Array<number>(bucketCount).fill(0);
  arrivals.forEach((a, i) => {
    if (!Number.isFinite(a)) return;
    const b = Math.max(0, Math.min(bucketCount - 1, Math.floor(a / bucketMs)));
    counts[b]++;
    segments.columns.forEach((column, j) => {
      const v = column[i];
      if (!Number.isNaN(v)) {
        sums[b][j].sum += v;
        sums[b][j].n++;
      }
    });
  });
  return {
    segmentNames: names,
    bucketMs,
    buckets: sums.map((segs, b) => ({
      startMs: b * bucketMs,
      requests: counts[b],
      meanMs: segs.map((s) => (s.n > 0 ? s.sum / s.n : null)),
    })),
  };
}

/**
 * The KV transfer bandwidth histogram (docs/metrics.md §KV transfer): the requests with a
 * bandwidth, in request order, their statistics and 40 bins. The summary's kvTransfer block
 * takes its count and statistics.
 */
export function* kvTransferBandwidthInSteps(gbps: Float64Array): Steps<HistogramPayload> {
  const values: number[] = [];
  for (let i = 0; i < gbps.length; i++) {
    if (i > 0 && i % PASS_STEP === 0) yield;
    if (!Number.isNaN(gbps[i])) values.push(gbps[i]);
  }
  const stats = yield* computeStatsInSteps(values);
  yield;
  return { unit: "GB/s", count: values.length, stats, bins: histogram(values, 40) };
}

const latencyDistribution: TrtllmColumnChart<typeof TRTLLM_CHARTS.latencyDistribution> = {
  chart: TRTLLM_CHARTS.latencyDistribution,
  inputs: ["latency"],
  compute: (c) => c.latency.distributionInSteps(),
};

const latencyOverTime: TrtllmColumnChart<typeof TRTLLM_CHARTS.latencyOverTime> = {
  chart: TRTLLM_CHARTS.latencyOverTime,
  inputs: ["arrivalMs", "latency"],
  compute: (c) => c.latency.overTimeInSteps(c.arrivalMs),
};

const kvTransferBandwidth: TrtllmColumnChart<typeof TRTLLM_CHARTS.kvTransferBandwidth> = {
  chart: TRTLLM_CHARTS.kvTransferBandwidth,
  inputs: ["kvBandwidthGBps"],
  compute: (c) => kvTransferBandwidthInSteps(c.kvBandwidthGBps),
};

const segmentShareChart: TrtllmColumnChart<typeof TRTLLM_CHARTS.segmentShare> = {
  chart: TRTLLM_CHARTS.segmentShare,
  inputs: ["arrivalMs", "segments"],
  *compute(c) {
    return segmentShare(c.arrivalMs, c.segments);
  },
};

/** In the order the ingest computes them. */
export const TRTLLM_COLUMN_CHARTS: readonly TrtllmColumnChart[] = [
  latencyDistribution,
  latencyOverTime,
  kvTransferBandwidth,
  segmentShareChart,
] as readonly TrtllmColumnChart[];

/** The column chart stored under `key`, if it is one. */
export const trtllmColumnChart = (key: string): TrtllmColumnChart | undefined =>
  TRTLLM_COLUMN_CHARTS.find((c) => c.chart.key === key);

/** Each column chart's key with the compute version its payload is stored at. */
export const TRTLLM_COLUMN_COMPUTE_VERSIONS: Readonly<Record<string, number>> = Object.fromEntries(
  TRTLLM_COLUMN_CHARTS.map((c) => [c.chart.key, TRTLLM_COLUMN_COMPUTE_VERSION]),
);
