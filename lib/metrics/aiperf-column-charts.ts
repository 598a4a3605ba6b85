/**
 * The aiperf charts whose only inputs are per-request columns, each with the one function that
 * computes it: the ingest's `finish` (./aiperf-run-result.ts) and the chart route's read of a
 * run's request file (lib/runs/column-charts.ts) call the same one, so a chart's numbers have one
 * home (docs/architecture.md §How a chart is computed).
 */
import { type Distribution, LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, type ChartDef, type ChartPayload } from "@/lib/api/chart-catalog";
import { CHART_COMPUTE_VERSION } from "@/lib/api/chart-version";
import { distributionOfSortedInSteps } from "./aiperf-distribution";
import { overTimePayloadInSteps, ttftVsInputPayload } from "./aiperf-timeline";
import type { RequestColumn, RequestLog } from "./requests-log";
import type { Steps } from "./steps";

/**
 * The version of the code below (`CHART_COMPUTE_VERSION`, raised there, as chart URLs carry it):
 * raise it when a computation here changes what a chart of the same records would be. A payload
 * stored at an older one (`chart_data.compute_version`) is computed again on its next read, for
 * every run with a request file.
 */
export const AIPERF_COLUMN_COMPUTE_VERSION = CHART_COMPUTE_VERSION;

export interface ColumnChart<C extends ChartDef = ChartDef> {
  chart: C;
  /** The request columns it reads; besides them, every request's flags (warm-up, error) */
  columns: readonly RequestColumn[];
  /** The payload of the requests in `log`, times counted from `originMs` (the run's first request) */
  compute(log: RequestLog, originMs: number): Steps<ChartPayload<C>>;
}

/** Each latency metric's histogram and CDF, over the log's sorted measured values (kept by the log). */
export function* distributionPayloadInSteps(
  log: RequestLog,
): Steps<ChartPayload<typeof AIPERF_CHARTS.distribution>> {
  const distributions: Array<[string, Distribution | null]> = [];
  for (const m of LATENCY_METRICS)
    distributions.push([m, yield* distributionOfSortedInSteps(yield* log.sortedMeasuredInSteps(m))]);
  return { metrics: Object.fromEntries(distributions) } as ChartPayload<typeof AIPERF_CHARTS.distribution>;
}

const distribution: ColumnChart<typeof AIPERF_CHARTS.distribution> = {
  chart: AIPERF_CHARTS.distribution,
  columns: LATENCY_METRICS,
  compute: (log) => distributionPayloadInSteps(log),
};

const overTime: ColumnChart<typeof AIPERF_CHARTS.overTime> = {
  chart: AIPERF_CHARTS.overTime,
  columns: ["startMs", ...LATENCY_METRICS],
  compute: (log, originMs) => overTimePayloadInSteps(log, originMs),
};

const ttftVsInput: ColumnChart<typeof AIPERF_CHARTS.ttftVsInput> = {
  chart: AIPERF_CHARTS.ttftVsInput,
  columns: ["ttftMs", "inputTokens"],
  *compute(log) {
    return ttftVsInputPayload(log);
  },
};

/** In the order the ingest computes them. */
export const AIPERF_COLUMN_CHARTS: readonly ColumnChart[] = [
  distribution,
  overTime,
  ttftVsInput,
] as readonly ColumnChart[];

/** The column chart stored under `key`, if it is one. */
export const aiperfColumnChart = (key: string): ColumnChart | undefined =>
  AIPERF_COLUMN_CHARTS.find((c) => c.chart.key === key);

/** Each column chart's key with the compute version its payload is stored at. */
export const AIPERF_COLUMN_COMPUTE_VERSIONS: Readonly<Record<string, number>> = Object.fromEntries(
  AIPERF_COLUMN_CHARTS.map((c) => [c.chart.key, AIPERF_COLUMN_COMPUTE_VERSION]),
);

/**
 * A chart of records that are a sample of the requests aiperf summarised says so (its
 * `sample`, docs/metrics.md §Records or summary); the records alone do not tell, the run's
 * summary does (its requests block's `recordsSample`).
 */
export function withRecordsSample<P extends object>(
  payload: P,
  sample: { records: number; described: number } | null | undefined,
): P {
  return sample ? { ...payload, sample } : payload;
}
