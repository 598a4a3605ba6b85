/**
 * TensorRT-LLM's side files beside the perf-metrics records (docs/formats.md §TensorRT-LLM side
 * files): what each looks like, so detection can name it and the Files view can say what it holds.
 *
 * - `time_events_rank{N}_pid{P}.jsonl`, written per executor rank when
 *   `TRTLLM_PERF_TIME_EVENTS_PATH` is set: one `{request_id, rank, ctx_request_id,
 *   time_breakdown_metrics}` object per finished request, or, since the writer's redesign, one
 *   flat `{role, event, request_id, ctx_request_id, rank, t, pid}` per lifecycle event (the
 *   disaggregated router's `disagg_router_pid{P}.jsonl` alike, `role: "router"`); read with exact
 *   ids by lib/formats/trtllm-time-events.ts.
 * - Iteration stats: the `/metrics` endpoint of `trtllm-serve` (with `enable_iter_perf_stats`)
 *   answers a JSON array of `IterationStats` objects (`iter`, `iterLatencyMS`, `kvCacheStats`,
 *   `inflightBatchingStats`, …) and forgets them, so a poller writes one array per line.
 * - Request stats (`enable_iter_req_stats`): `RequestStatsPerIteration` objects,
 *   `{iter, requestStats: [{id, stage, numGeneratedTokens, …}]}`, in the same layouts.
 */
import type { Format } from "./kinds";
import { isTimeEventEnvelope } from "./trtllm-time-events";

export type SideFileFormat = Extract<Format, "time-events" | "iteration-stats" | "request-stats">;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Which side file one JSON object (a line, or an array's first element) belongs to, if any. */
export function sideFileFormatOf(v: unknown): SideFileFormat | null {
  if (!isObject(v)) return null;
  if (isObject(v.time_breakdown_metrics) && "rank" in v && !("perf_metrics" in v)) return "time-events";
  if (isTimeEventEnvelope(v)) return "time-events";
  if ("iter" in v && Array.isArray(v.requestStats) && !("iterLatencyMS" in v)) return "request-stats";
  if (
    "iterLatencyMS" in v ||
    ("iter" in v && (isObject(v.kvCacheStats) || isObject(v.inflightBatchingStats)))
  )
    return "iteration-stats";
  return null;
}

/** The same rules on key names, for a first line or document larger than the detection head. */
export function sniffSideFileKeys(text: string): SideFileFormat | null {
  const start = text.slice(0, 4096);
  const has = (key: string) => new RegExp(`"${key}"\\s*:`).test(start);
  if (has("time_breakdown_metrics") && has("rank") && !has("perf_metrics")) return "time-events";
  if (has("role") && has("event") && has("request_id") && has("t")) return "time-events";
  if (has("iterLatencyMS")) return "iteration-stats";
  if (has("requestStats") && has("iter")) return "request-stats";
  return null;
}

/** What each side file would give if it were charted: said in the Files view beside "not charted". */
export const SIDE_FILE_NOTES: Record<SideFileFormat, { holds: string; wouldGive: string }> = {
  "time-events": {
    holds:
      "per-rank step timelines (time_breakdown_metrics) of each finished request, or each request's lifecycle events (role, event, t) as they fired",
    wouldGive:
      "per-rank step timelines; the Breakdown view's step statistics come from the same step arrays in the perf-metrics records (return_perf_metrics: true)",
  },
  "iteration-stats": {
    holds: "per-iteration executor stats (iterLatencyMS, kvCacheStats, inflightBatchingStats)",
    wouldGive:
      "iteration latency, KV-cache block usage and batch composition over iterations; the KV view charts KV usage from server metrics",
  },
  "request-stats": {
    holds: "per-iteration request states (requestStats: stage, generated tokens, KV blocks per request)",
    wouldGive: "each request's stage and KV blocks per iteration",
  },
};
