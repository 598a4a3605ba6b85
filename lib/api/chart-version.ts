/**
 * The version a chart URL carries (`?v=`): a ready run's charts change only when an ingest
 * rewrites them, and every ingest stores a new stamp, so a URL with the current version names
 * one payload for good and may be cached as immutable. Client and chart route derive it here.
 */
export function chartVersion(run: { aggregatorVersion: number; ingestedAt?: number }): string {
  return `${run.aggregatorVersion}.${run.ingestedAt ?? 0}`;
}

/** The version of a stored run row (its summary JSON holds the ingest stamp). */
export function storedChartVersion(row: { aggregator_version: number; summary: string | null }): string {
  const stamp = row.summary ? (JSON.parse(row.summary) as { ingestedAt?: unknown }).ingestedAt : undefined;
  return chartVersion({
    aggregatorVersion: row.aggregator_version,
    ingestedAt: typeof stamp === "number" ? stamp : undefined,
  });
}
