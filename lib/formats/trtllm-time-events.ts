/**
 * TensorRT-LLM's time-events lines (docs/formats.md §TensorRT-LLM side files), read with their ids
 * exact. Two generations of one writer, both `time_events_rank{N}_pid{P}.jsonl` written per
 * executor rank when `TRTLLM_PERF_TIME_EVENTS_PATH` is set:
 *
 * - per finished request (PR #16900, `PerfMetricsManager.maybe_write_request_events` in
 *   tensorrt_llm/_torch/pyexecutor/perf_metrics_manager.py at 04f7582ba6c536d7c43c5fd093b0918ccffd7980):
 *   `{request_id, rank, ctx_request_id, time_breakdown_metrics, request_timing_metrics?}`;
 * - per lifecycle event (the redesign in tensorrt_llm/serve/perf_time_events_writer.py
 *   `make_event_record` / `emit_event`, docs/source/developer-guide/perf-analysis.md §Perf Time
 *   Events): a flat `{role, event, request_id, ctx_request_id, rank, t, pid}` per event, flushed as
 *   it fires, so a request that hung leaves the events it reached. The disaggregated router writes
 *   the same envelope (`disagg_router_pid{P}.jsonl`, `role: "router"`, a router-local
 *   `request_id`, with `disagg_request_id`, `ctx_server`, `gen_server`).
 *
 * The ids are the executor's request ids, which in disaggregated serving are TensorRT-LLM's 64-bit
 * snowflakes (`get_global_disagg_request_id`), and the writers `json.dumps` them as exact
 * integers: read through a double, ids of one millisecond a counter apart became one request and
 * their events merged. They are read as the strings of their digits (parseTrtllmJsonText).
 */
import { parseTrtllmJsonText } from "./trtllm-record";

export { parseTrtllmJsonText as parseTimeEventsText };

/** The roles of the per-event envelope */
export const TIME_EVENT_ROLES = ["ctx", "gen", "router"] as const;
export type TimeEventRole = (typeof TIME_EVENT_ROLES)[number];

/**
 * The event each role's lifecycle ends with (perf_time_events.py `_CTX_EVENTS`, `_GEN_EVENTS`,
 * `_ROUTER_EVENT_TO_FIELD`): a request without it had not finished when the file was written.
 */
export const LAST_EVENT: Record<TimeEventRole, string> = {
  ctx: "ctx_ready_sent",
  gen: "gen_last_token",
  router: "resp_done",
};

export interface TimeEvent {
  /** "request" for a per-request line; else the event's role */
  role: TimeEventRole | "request";
  /** The event's name; null for a per-request line */
  event: string | null;
  requestId: string | null;
  ctxRequestId: string | null;
  disaggRequestId: string | null;
  /**
   * The line's moments, steady-clock seconds (`get_steady_clock_now_in_seconds`, the C++
   * `steady_clock` the perf metrics' `timing_metrics` read too): the event's `t`, or a per-request
   * line's `request_timing_metrics` (arrival_time, first_scheduled_time, …, when the request
   * carried return_perf_metrics).
   */
  stamps: Array<{ event: string; t: number }>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function id(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "string" && v !== "") return v;
  return null;
}

/** Whether a value is a per-event envelope line (worker or router). */
export function isTimeEventEnvelope(v: Record<string, unknown>): boolean {
  return (
    typeof v.event === "string" &&
    (TIME_EVENT_ROLES as readonly unknown[]).includes(v.role) &&
    "request_id" in v &&
    "t" in v
  );
}

/** A time-events line's ids and event, or null when the value is neither form. */
export function timeEventOf(v: unknown): TimeEvent | null {
  if (!isObject(v)) return null;
  const ids = {
    requestId: id(v.request_id),
    ctxRequestId: id(v.ctx_request_id),
    disaggRequestId: id(v.disagg_request_id),
  };
  if (isTimeEventEnvelope(v)) {
    const t = typeof v.t === "number" && Number.isFinite(v.t) ? v.t : null;
    const event = v.event as string;
    return { role: v.role as TimeEventRole, event, ...ids, stamps: t === null ? [] : [{ event, t }] };
  }
  if (isObject(v.time_breakdown_metrics) && "rank" in v && !("perf_metrics" in v)) {
    const stamps: TimeEvent["stamps"] = [];
    if (isObject(v.request_timing_metrics))
      for (const [event, t] of Object.entries(v.request_timing_metrics))
        if (typeof t === "number" && Number.isFinite(t) && t > 0) stamps.push({ event, t });
    return { role: "request", event: null, ...ids, stamps };
  }
  return null;
}
