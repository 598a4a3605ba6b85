/**
 * TensorRT-LLM per-request perf-metrics JSONL as its released writer writes it, generated (no
 * code or data of TensorRT-LLM's is copied). Followed:
 *
 * - `tensorrt_llm/serve/perf_metrics.py` (PR #16668, "refactor per-request perf metrics for
 *   multi-process trtllm-server", merged July 2026): the serving layer returns each request's
 *   metrics to the client as response headers (`Server-Timing`, `X-TRTLLM-Start-End-Time`, …)
 *   or, streamed, as one `event: trtllm.perf_metrics` SSE event after `data: [DONE]`, both only
 *   with `return_perf_metrics` on and the request's `X-TRTLLM-return-metrics: 1`; neither
 *   carries a request id. With `perf_metrics_output_dir` set, `PerfMetricsJsonlWriter` writes
 *   `perf_metrics-<kind>-<host>-<pid>-<UTC stamp>.jsonl`, one compact `json.dumps` line per
 *   request (`_jsonl_record`): a worker record `{request_id, perf_metrics: {timing_metrics,
 *   first_iter, last_iter, kv_cache_metrics}, ctx_request_id?, time_breakdown_metrics?, status,
 *   disagg_request_id?}` (`request_id` an int where its text is one, else the string), or a
 *   disaggregated record `{ctx_server, gen_server, disagg_server_arrival_time,
 *   disagg_ctx_dispatch_time, disagg_server_first_token_time, status, ctx_perf_metrics,
 *   gen_perf_metrics, disagg_request_id?}`, whose worker parts hold `request_id`,
 *   `ctx_request_id` and `perf_metrics`. `kv_cache_hit_rate` is dropped from the KV metrics, the
 *   KV-transfer stamps are dropped where `kv_cache_size` is 0.
 * - `tensorrt_llm/serve/_perf_metrics_schema.py` (commit 4856bb733b35c4d512770ef1d109d35d2faf930d):
 *   the record types (`WorkerPerfMetricsRecord`, `DisaggPerfMetricsRecord`).
 * - `tensorrt_llm/llmapi/disagg_utils.py` `get_global_disagg_request_id` (PR #10187, "use global
 *   unique id as disagg request id", and its later node/process layout): the disaggregated
 *   request id, which is also the workers' request id, is a 64-bit snowflake,
 *   `monotonic ms (39 bits) | node (8) | process (6) | counter (10)`, rotated into
 *   [2^40, 2^63 − 1). Python writes it as an exact integer: beyond a double's 53 bits.
 */

const MIN_GLOBAL_ID = 1n << 40n;

/**
 * An aggregated request's stamps, ms after the server's arrival: first token 20 ms (the server's
 * own; the engine's at 18), last token 90 ms. Its TTFT is 20 ms and its E2E 90 ms.
 */
export const AGGREGATED_MS = {
  serverArrival: 0,
  arrival: 1,
  scheduled: 3,
  firstToken: 18,
  serverFirstToken: 20,
  lastToken: 90,
};
const MAX_INT64 = (1n << 63n) - 1n;

/** A disaggregated request id laid out as get_global_disagg_request_id lays it out. */
export function snowflakeId({ monotonicMs, node = 0, processId = 0, counter }) {
  const ts = BigInt(monotonicMs) & ((1n << 39n) - 1n);
  const id = (ts << 24n) | (BigInt(node) << 16n) | (BigInt(processId) << 10n) | (BigInt(counter) & 1023n);
  return (id % (MAX_INT64 - MIN_GLOBAL_ID)) + MIN_GLOBAL_ID;
}

/** Compact JSON as Python's `json.dumps(…, separators=(",", ":"))`, BigInt ids as exact integers. */
export function pythonJson(value) {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `__int__${v}` : v)).replace(
    /"__int__(-?\d+)"/g,
    "$1",
  );
}

/** One worker's part: its ids and perf_metrics, stamps at `t` (steady-clock seconds) + offsets in ms. */
export function workerPart({ requestId, ctxRequestId, t, ms, firstIter = 1, lastIter = 1 }) {
  const at = (k) => (ms[k] === undefined ? undefined : t + ms[k] / 1000);
  const timing = {
    arrival_time: at("arrival"),
    first_scheduled_time: at("scheduled"),
    first_token_time: at("firstToken"),
    last_token_time: at("lastToken"),
    server_arrival_time: at("serverArrival"),
    server_first_token_time: at("serverFirstToken"),
  };
  const part = {
    request_id: requestId,
    perf_metrics: {
      timing_metrics: Object.fromEntries(Object.entries(timing).filter(([, v]) => v !== undefined)),
      first_iter: firstIter,
      last_iter: lastIter,
      kv_cache_metrics: {
        num_total_allocated_blocks: 4,
        num_new_allocated_blocks: 4,
        num_reused_blocks: 0,
        num_missed_blocks: 4,
      },
    },
  };
  if (ctxRequestId !== undefined && ctxRequestId !== null) part.ctx_request_id = ctxRequestId;
  return part;
}

/** A worker record line (`WorkerPerfMetricsRecord`). */
export function workerRecordLine({ disaggRequestId, status = "complete", ...part }) {
  const record = { ...workerPart(part), status };
  if (disaggRequestId !== undefined) record.disagg_request_id = disaggRequestId;
  return pythonJson(record);
}

/** A disaggregated record line (`DisaggPerfMetricsRecord`), ctx and gen parts given as workerPart's options. */
export function disaggRecordLine({ ctxServer, genServer, t, ms, ctx, gen, disaggRequestId }) {
  const record = {
    ctx_server: ctxServer,
    gen_server: genServer,
    disagg_server_arrival_time: t,
    disagg_ctx_dispatch_time: t + ms.dispatch / 1000,
    disagg_server_first_token_time: t + ms.firstToken / 1000,
    status: "complete",
    ctx_perf_metrics: workerPart(ctx),
    gen_perf_metrics: workerPart(gen),
  };
  if (disaggRequestId !== undefined) record.disagg_request_id = disaggRequestId;
  return pythonJson(record);
}
