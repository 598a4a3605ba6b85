import type { EndpointRow, RunSummary, Stats, TimeBreakdownBlock } from "@/lib/api/schemas";
import { EMPTY_ENDPOINT } from "@/lib/ingest/merge-results";
import { composeRunSummary } from "@/lib/runs/read-run";
import { runRow } from "../helpers/run-row";

/** A TensorRT-LLM time breakdown of `requestCount` requests: no segments, no KV figures, no latency unless given. */
export function timeBreakdown(
  mode: TimeBreakdownBlock["mode"],
  requestCount: number,
  latency: TimeBreakdownBlock["latency"] = null,
): TimeBreakdownBlock {
  return {
    mode,
    requestCount,
    segments: [],
    kvCacheHitRate: null,
    kvBlockLookups: null,
    kvTransfer: null,
    latency,
  };
}

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

/** An aiperf requests block of 10 requests over 10 s (TTFT p50 100 ms, E2E p50 1 s); `over` changes it. */
export function aiperfRequests(
  over: Partial<NonNullable<RunSummary["requests"]>> = {},
): NonNullable<RunSummary["requests"]> {
  return {
    source: "aiperf",
    count: 10,
    errorCount: 0,
    warmupCount: 0,
    durationS: 10,
    ttftMs: stats(100),
    e2eMs: stats(1000),
    itlMs: null,
    inputTokens: null,
    outputTokens: null,
    ...over,
  };
}

/** A run summary with every block empty, as the store composes it; tests fill what they compare. */
export function summary(id: string, over: Partial<RunSummary> = {}): RunSummary {
  const run = runRow({ id, name: id, status: "ready", updated_at: 0, created_at: Date.parse("2026-11-29") });
  return { ...composeRunSummary(run, []), ...over };
}
