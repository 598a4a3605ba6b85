/** The Breakdown view's charts for the report: segment statistics and shares, KV transfers and hits, steps. */
import { STEP_METRICS, type RequestSample } from "@/lib/api/trtllm-charts";
import { formatCount, formatNumber } from "@/lib/format-number";
import {
  inScope,
  segmentShareRows,
  segmentStatRows,
  type SegmentStatRow,
} from "@/lib/metrics/trtllm-chart-rows";
import type { Figure } from "./html";
import { figure, reportFigure, type Payloads } from "./figure-kit";
import { segmentToken, tokenColour } from "@/lib/api/figure";
import {
  kvHitRateFigure,
  kvTransferBandwidthFigure,
  requestBreakdownFigure,
} from "@/lib/metrics/figures/breakdown";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

const STEP_LABEL: Record<string, string> = {
  preprocessingMs: "preprocessing",
  forwardMs: "forward",
  updateMs: "update",
  sampleMs: "sample",
  postprocessingMs: "postprocessing",
  gpuForwardMs: "GPU forward",
  gpuSampleMs: "GPU sample",
};

function segments(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.segments);
  if (!payload) return [];
  // The same rows the view's segment table shows: a segment whose alternative was recorded instead is left out.
  const stats = ["p50", "p90", "p99"] as const;
  // The spans up to the first token only: decode is most of every request and would flatten them
  // to slivers; its numbers are in the segment table above.
  const ttft = (rows: SegmentStatRow[]) => rows.filter((r) => inScope(r.name, "ttft"));
  const byStat = stats.map((s) => ttft(segmentStatRows(payload, s)));
  return [
    figure(
      TRTLLM_CHARTS.segments.key,
      "Where the time to first token goes: segments",
      `Per segment up to the first token, over ${payload.requestCount === 1 ? "the 1 request" : `the ${formatCount(payload.requestCount)} requests`} (${payload.mode}) where it was recorded; decode is in the table above.`,
      {
        kind: "bars",
        categories: byStat[0].map((r) => r.name),
        value: { title: "Segment time", unit: "ms" },
        series: stats.map((s, i) => ({ label: s, values: byStat[i].map((r) => r.valueMs) })),
      },
      "no segment was recorded in any request",
      "segment",
    ),
  ];
}

function share(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.segmentShare);
  if (!payload) return [];
  const rows = segmentShareRows(payload, "ttft");
  const names = payload.segmentNames.filter((n) => rows.some((r) => r[n] !== undefined));
  return [
    figure(
      TRTLLM_CHARTS.segmentShare.key,
      "Share of TTFT per segment over the run",
      `Mean segment time as a share of the TTFT segments, per ${formatNumber(payload.bucketMs / 1000, 3)} s of arrivals.`,
      {
        kind: "line",
        x: { title: "Arrival since the run's first request", unit: "s" },
        y: { title: "Share of TTFT", unit: "%" },
        series: names.map((n) => ({
          label: n,
          colour: tokenColour(segmentToken(n)),
          points: rows.map((r) => [r.startS, r[n] === undefined ? null : r[n] * 100] as const),
        })),
      },
      "fewer than two time buckets had requests",
    ),
  ];
}

function kvTransfer(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.kvTransferBandwidth);
  return payload && payload.count > 0 ? [reportFigure(kvTransferBandwidthFigure(payload))] : [];
}

function kvHitRate(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.kvHitRate);
  // As the Breakdown view draws it: when a worker file is listed.
  return payload && payload.byWorker.length > 0 ? [reportFigure(kvHitRateFigure(payload))] : [];
}

function steps(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.steps);
  if (!payload) return [];
  return (["steps", "chunks"] as const).map((kind) =>
    figure(
      `${TRTLLM_CHARTS.steps.key}-${kind}`,
      kind === "steps" ? "Generation step phases" : "Context chunk phases",
      "Median and p99 of each phase over every step recorded (time_breakdown_metrics).",
      {
        kind: "bars",
        categories: STEP_METRICS.map((m) => STEP_LABEL[m]),
        value: { title: "Phase time", unit: "ms" },
        series: (["p50", "p99"] as const).map((s) => ({
          label: s,
          values: STEP_METRICS.map((m) => payload[kind][m]?.[s] ?? null),
        })),
      },
      `no ${kind === "steps" ? "generation steps" : "context chunks"} were recorded (TensorRT-LLM step metrics off)`,
      "phase",
    ),
  );
}

/** How many requests the report's per-request chart draws: a few hundred columns still read as a profile. */
export const REPORT_REQUEST_BARS = 400;

/**
 * The view's per-request breakdown, its segments up to the first token (decode left out, so each
 * column is that request's TTFT), sorted by TTFT, slowest first.
 */
export function requestBarsFigure(sample: RequestSample | null): Figure[] {
  if (!sample || sample.requests.length === 0) return [];
  return [reportFigure(requestBreakdownFigure(sample, "ttft"))];
}

export function breakdownFigures(p: Payloads, sample: RequestSample | null = null): Figure[] {
  return [
    ...segments(p),
    ...requestBarsFigure(sample),
    ...share(p),
    ...kvTransfer(p),
    ...kvHitRate(p),
    ...steps(p),
  ];
}
