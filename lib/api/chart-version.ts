/**
 * The version of the code that computes charts on read from a run's columns
 * (lib/metrics/aiperf-column-charts.ts): raised when such a computation changes what a chart of
 * the same records would be. A payload stored at an older one is computed again on its next read,
 * and the chart URLs change with it, so no browser keeps the old payload as immutable.
 */
export const CHART_COMPUTE_VERSION = 1;

/**
 * The version a chart URL carries (`?v=`): a ready run's charts change only when an ingest
 * rewrites them (every ingest stores a new stamp) or when the code computing them on read changes
 * (`CHART_COMPUTE_VERSION`), so a URL with the current version names one payload for good and may
 * be cached as immutable. Client and chart route derive it here.
 */
export function chartVersion(run: { aggregatorVersion: number; ingestedAt: number }): string {
  return `${run.aggregatorVersion}.${run.ingestedAt}.${CHART_COMPUTE_VERSION}`;
}

/**
 * When the ingest that wrote a stored run row committed: the stamp its summary JSON holds, or,
 * for a summary stored before the stamp was (lib/runs/stored-summary.ts), its summary's
 * commit time, else 0.
 */
export function ingestStamp(row: { summary: string | null; summary_ready_at: number | null }): number {
  const stamp = row.summary ? (JSON.parse(row.summary) as { ingestedAt?: unknown }).ingestedAt : undefined;
  return typeof stamp === "number" ? stamp : (row.summary_ready_at ?? 0);
}

/** The version of a stored run row. */
export function storedChartVersion(row: {
  aggregator_version: number;
  summary: string | null;
  summary_ready_at: number | null;
}): string {
  return chartVersion({ aggregatorVersion: row.aggregator_version, ingestedAt: ingestStamp(row) });
}
