/** The Breakdown view's charts for the report: segment statistics and shares, KV transfers and hits, steps. */
import type { RequestSample } from "@/lib/api/trtllm-charts";
import type { Figure } from "./html";
import { reportFigure, type Payloads } from "./figure-kit";
import { stepPhasesFigure } from "@/lib/metrics/figures/steps";
import { segmentShareFigure, segmentStatsFigure } from "@/lib/metrics/figures/segments";
import {
  kvHitRateFigure,
  kvTransferBandwidthFigure,
  requestBreakdownFigure,
} from "@/lib/metrics/figures/breakdown";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

/** The statistics the report stacks the segments at: the page's toggle, a few of its choices at once. */
export const REPORT_SEGMENT_STATS = ["p50", "p90", "p99"] as const;

/**
 * The segments up to the first token only: decode is most of every request and would flatten them
 * to slivers (the page's "TTFT segments only").
 */
function segments(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.segments);
  return payload ? [reportFigure(segmentStatsFigure(payload, REPORT_SEGMENT_STATS, "ttft"))] : [];
}

function share(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.segmentShare);
  return payload ? [reportFigure(segmentShareFigure(payload, "ttft"))] : [];
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

/**
 * Both kinds, as the view draws them beside its step table; a kind without any phase recorded
 * says what is missing in its place (every stored chart is in the report, drawn or said missing).
 */
function steps(p: Payloads): Figure[] {
  const payload = p.get(TRTLLM_CHARTS.steps);
  if (!payload) return [];
  return (["steps", "chunks"] as const).map((kind) => reportFigure(stepPhasesFigure(payload, kind)));
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
