// TensorRT-LLM files beside (or instead of) the released perf-metrics JSONL, built from the
// worker and disagg-server records of test/generators/trtllm.mjs.
//
// - The phase-keyed record follows TensorRT-LLM's tensorrt_llm/serve/perf_metrics.py:
//   `build_request_metrics_record` (a worker's `phases.server`), `build_metrics_record_from_headers`
//   (a worker phase rebuilt from its response headers: start/end stamps at 9 decimals, durations
//   in ms at 6) and `combine_disagg_metrics` (the disagg server's `phases.{disagg, ctx, gen}`). The
//   development build of its JSONL writer (tests/unittest/llmapi/apps/test_request_metrics.py at
//   that build) wrote the record as is, with `worker: {server_kind, pid}` and `metrics_headers`.
// - time_events_rank{N}_pid{P}.jsonl follows tensorrt_llm/serve/scripts/perf_time_events/README.md:
//   one `{request_id, rank, ctx_request_id, time_breakdown_metrics}` per finished request.
// - The per-event redesign of the same file follows tensorrt_llm/serve/perf_time_events_writer.py
//   (`make_event_record`: a flat `{role, event, request_id, ctx_request_id, rank, t, pid}`, every
//   key present, written with `json.dumps(record, default=str)`: Python's ", " and ": " separators,
//   integer ids exact) and the event names of tensorrt_llm/serve/scripts/perf_time_events/
//   perf_time_events.py (`_CTX_EVENTS`, `_GEN_EVENTS`).
// - Iteration and request stats follow the executor's JSON of `IterationStats` and
//   `RequestStatsPerIteration` (key names as TensorRT-LLM's tests/unittest/bindings/
//   test_executor_bindings.py pins them) and tensorrt_llm/serve/openai_server.py's `/metrics`,
//   which answers a JSON array of the stats gathered since the last call.

const PID = 4242;

/** A worker record's phase, as `build_request_metrics_record` fills it. */
function serverPhase(rec) {
  const pm = rec.perf_metrics;
  const kv = pm.kv_cache_metrics;
  const phase = {
    first_iter: pm.first_iter,
    last_iter: pm.last_iter,
    timing_metrics: { ...pm.timing_metrics },
    kv_cache_metrics: kv && {
      ...kv,
      kv_cache_hit_rate: kv.num_reused_blocks / Math.max(1, kv.num_reused_blocks + kv.num_missed_blocks),
    },
  };
  if (rec.time_breakdown_metrics) phase.time_breakdown_metrics = rec.time_breakdown_metrics;
  return phase;
}

/** One worker record as the development build wrote it: the phase-keyed record plus `worker`. */
export function phaseKeyedWorker(rec, serverKind = "server") {
  const out = {
    schema_version: 1,
    request_id: String(rec.request_id),
    status: rec.status ?? "complete",
    phases: { server: serverPhase(rec) },
  };
  if (rec.ctx_request_id !== undefined) out.ctx_request_id = rec.ctx_request_id;
  if (rec.disagg_request_id !== undefined) out.disagg_request_id = rec.disagg_request_id;
  out.worker = { server_kind: serverKind, pid: PID };
  out.metrics_headers = {};
  return out;
}

const ts = (s) => Number(s.toFixed(9));
const dur = (a, b) => Number(((b - a) * 1000).toFixed(6)) / 1000;

/**
 * A worker phase rebuilt from the worker's response headers (`build_metrics_record_from_headers`):
 * arrival and last token from `X-TRTLLM-Start-End-Time`, first scheduling and first token from
 * `Server-Timing` durations added to the arrival. The server_* and KV-transfer stamps do not travel.
 */
function headerPhase(rec, phase) {
  const t = rec.perf_metrics.timing_metrics;
  const arrival = ts(t.arrival_time);
  const timing = { arrival_time: arrival, last_token_time: ts(t.last_token_time) };
  if (t.first_scheduled_time)
    timing.first_scheduled_time = arrival + dur(t.arrival_time, t.first_scheduled_time);
  if (t.first_token_time) timing.first_token_time = arrival + dur(t.arrival_time, t.first_token_time);
  return {
    metrics_headers: { "X-TRTLLM-Start-End-Time": `${phase}-start;ts=${arrival.toFixed(9)}` },
    timing_metrics: timing,
    request_id: String(rec.request_id),
    ...(rec.ctx_request_id !== undefined ? { ctx_request_id: rec.ctx_request_id } : {}),
  };
}

/** One disagg-server record as `combine_disagg_metrics` builds it, keyed by phase. */
export function phaseKeyedDisagg(rec) {
  const phases = {
    disagg: {
      timing_metrics: {
        server_arrival_time: rec.disagg_server_arrival_time,
        ctx_dispatch_time: rec.disagg_ctx_dispatch_time,
        server_first_token_time: rec.disagg_server_first_token_time,
      },
      ctx_server: rec.ctx_server,
      gen_server: rec.gen_server,
    },
  };
  if (rec.ctx_perf_metrics) phases.ctx = headerPhase(rec.ctx_perf_metrics, "ctx");
  if (rec.gen_perf_metrics) phases.gen = headerPhase(rec.gen_perf_metrics, "gen");
  const out = {
    schema_version: 1,
    request_id: String(rec.disagg_request_id ?? ""),
    status: "complete",
    phases,
  };
  if (rec.disagg_request_id !== undefined) out.disagg_request_id = rec.disagg_request_id;
  out.worker = { server_kind: "disagg", pid: PID };
  return out;
}

export const jsonl = (values) => values.map((v) => JSON.stringify(v)).join("\n") + "\n";

/** time_events_rank{rank}_pid{pid}.jsonl: the step arrays of each record, no timing. */
export function timeEventsLines(records, rank = 0) {
  return jsonl(
    records.map((r) => ({
      request_id: r.request_id,
      rank,
      ctx_request_id: r.ctx_request_id ?? null,
      time_breakdown_metrics: r.time_breakdown_metrics ?? {},
    })),
  );
}

/** `IterationStats` of iterations first..first+count-1 as the executor serialises them. */
export function iterationStats(first, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const used = 100 + 7 * i;
    out.push({
      timestamp: `12:00:${String(i % 60).padStart(2, "0")}`,
      iter: first + i,
      iterLatencyMS: 20 + (i % 5),
      newActiveRequestsQueueLatencyMS: 0.5,
      numActiveRequests: 8,
      numQueuedRequests: i % 3,
      numCompletedRequests: i % 2,
      maxNumActiveRequests: 64,
      gpuMemUsage: 70_000_000_000,
      cpuMemUsage: 0,
      pinnedMemUsage: 0,
      kvCacheStats: {
        maxNumBlocks: 4096,
        freeNumBlocks: 4096 - used,
        usedNumBlocks: used,
        tokensPerBlock: 32,
        allocTotalBlocks: used,
        allocNewBlocks: 7,
        reusedBlocks: 3,
        missedBlocks: 7,
        cacheHitRate: 0.3,
      },
      staticBatchingStats: null,
      inflightBatchingStats: {
        numScheduledRequests: 8,
        numContextRequests: 1,
        numGenRequests: 7,
        numPausedRequests: 0,
        numCtxTokens: 512,
        microBatchId: 0,
        avgNumDecodedTokensPerIter: 1,
      },
      specDecodingStats: null,
    });
  }
  return out;
}

/** A poller of `/metrics`: one JSON array per GET, each holding the iterations since the last. */
export function iterationStatsPolls(polls) {
  let iter = 0;
  return polls
    .map((n) => {
      const stats = iterationStats(iter, n);
      iter += n;
      return JSON.stringify(stats);
    })
    .join("\n")
    .concat("\n");
}

/** `RequestStatsPerIteration` objects, one per iteration, each with its requests' states. */
export function requestStatsPerIteration(first, count, requestsPerIter = 2) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const requestStats = [];
    for (let r = 0; r < requestsPerIter; r++)
      requestStats.push({
        id: 1000 + r,
        stage: i === 0 ? "CONTEXT_IN_PROGRESS" : "GENERATION_IN_PROGRESS",
        contextPrefillPosition: 512,
        numGeneratedTokens: i,
        avgNumDecodedTokensPerIter: 1,
        scheduled: true,
        paused: false,
        disServingStats: null,
        allocTotalBlocksPerRequest: 16,
        allocNewBlocksPerRequest: i === 0 ? 16 : 0,
        reusedBlocksPerRequest: 0,
        missedBlocksPerRequest: i === 0 ? 16 : 0,
        kvCacheHitRatePerRequest: 0,
      });
    out.push({ iter: first + i, requestStats });
  }
  return out;
}

/** The gen-init lifecycle a gen worker records (perf_time_events.py `_GEN_EVENTS`), in order. */
export const GEN_EVENTS = [
  "gen_arrival",
  "gen_init_scheduled",
  "gen_kv_transfer_start",
  "gen_kv_transfer_end",
  "gen_first_scheduled",
  "gen_first_token",
  "gen_last_token",
];

/** A value as Python's `json.dumps` writes it (", " and ": "), BigInt ids as exact integers. */
export function pythonDumps(value) {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`)
    .join(", ")}}`;
}

/**
 * time_events_rank{rank}_pid{pid}.jsonl of the per-event writer: each request's events, one line
 * each, `t` steady-clock seconds from `t0` 5 ms apart; `events` per request (default the whole
 * gen lifecycle) lets a request stop where it hung. Lines of concurrent requests interleave.
 */
export function perEventTimeEvents(requests, { role = "gen", rank = 0, pid = 77, t0 = 3024000 } = {}) {
  const lines = [];
  const longest = Math.max(...requests.map((r) => (r.events ?? GEN_EVENTS).length));
  for (let step = 0; step < longest; step++) {
    requests.forEach((r, i) => {
      const event = (r.events ?? GEN_EVENTS)[step];
      if (event === undefined) return;
      lines.push(
        pythonDumps({
          role,
          event,
          request_id: r.requestId,
          ctx_request_id: r.ctxRequestId ?? null,
          rank,
          t: Number((t0 + step * 0.005 + i * 0.0001).toFixed(4)),
          pid,
        }),
      );
    });
  }
  return lines.join("\n") + "\n";
}

/** Per-request time-events lines (the writer's first generation) with exact ids, as Python writes them. */
export function perRequestTimeEvents(requests, rank = 0) {
  return (
    requests
      .map((r) =>
        pythonDumps({
          request_id: r.requestId,
          rank,
          ctx_request_id: r.ctxRequestId ?? null,
          time_breakdown_metrics: { step_metrics: [], ctx_chunk_metrics: [] },
        }),
      )
      .join("\n") + "\n"
  );
}
