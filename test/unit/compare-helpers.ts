import type { EndpointRow, RunSummary, Stats } from "@/lib/api/schemas";
import { EMPTY_ENDPOINT } from "@/lib/ingest/merge-results";

export function stats(p50: number, extra: Partial<Stats> = {}): Stats {
  return {
    count: 10,
    mean: p50,
    min: p50 / 2,
    max: p50 * 2,
    p50,
    p90: p50 * 1.5,
    p95: p50 * 1.7,
    p99: p50 * 2,
    ...extra,
  };
}

export function endpoint(e: Partial<EndpointRow> & Pick<EndpointRow, "endpoint">): EndpointRow {
  return { ...EMPTY_ENDPOINT, ...e };
}

/** A run summary with every block empty; tests fill what they compare. */
export function summary(id: string, over: Partial<RunSummary> = {}): RunSummary {
  return {
    id,
    name: id,
    createdAt: "2026-11-29T00:00:00.000Z",
    labels: [],
    status: "ready",
    aggregatorVersion: 1,
    files: [],
    error: null,
    collectors: { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null },
    requests: null,
    timeBreakdown: null,
    serverMetrics: null,
    endpoints: [],
    info: {},
    warnings: [],
    ...over,
  };
}
