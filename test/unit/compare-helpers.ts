import type { EndpointRow, RunSummary, Stats } from "@/lib/api/schemas";
import { EMPTY_ENDPOINT } from "@/lib/ingest/merge-results";
import { composeRunSummary } from "@/lib/runs/read-run";
import { runRow } from "../helpers/run-row";

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

/** A run summary with every block empty, as the store composes it; tests fill what they compare. */
export function summary(id: string, over: Partial<RunSummary> = {}): RunSummary {
  const run = runRow({ id, name: id, status: "ready", updated_at: 0, created_at: Date.parse("2026-11-29") });
  return { ...composeRunSummary(run, []), ...over };
}
