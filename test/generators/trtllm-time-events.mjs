/**
 * A disaggregated TensorRT-LLM run's time events and perf metrics, generated (no code or data of
 * TensorRT-LLM's is copied). The time-events lines follow
 * `tensorrt_llm/serve/scripts/perf_time_events/perf_time_events.py` (the per-event envelope
 * `{role, event, request_id, ctx_request_id, rank, t, pid}`, `_CTX_EVENTS`, `_GEN_EVENTS`,
 * `_ROUTER_EVENT_TO_FIELD`, `_ROUTER_PROVENANCE`; the router's `request_id` a per-process
 * sequence, its `ctx_request_id` null until the ctx round trip) and
 * `tensorrt_llm/serve/perf_time_events_writer.py` at commit
 * 04f7582ba6c536d7c43c5fd093b0918ccffd7980 (`json.dumps` per line); `t` is
 * `get_steady_clock_now_in_seconds` (`tensorrt_llm/_torch/pyexecutor/perf_metrics_manager.py` at
 * the same commit), one steady clock per host. The perf metrics follow ./trtllm-jsonl-writer.mjs.
 * Request i arrives at T + i ms on the disaggregated server's clock, which the router and the gen
 * worker share; the ctx worker's host clock is `CTX_HOST_OFFSET` seconds away. Request 2's gen
 * worker hangs after its KV transfer starts.
 */
import { GEN_EVENTS, pythonDumps } from "./trtllm-phases.mjs";
import { disaggRecordLine } from "./trtllm-jsonl-writer.mjs";

export const CTX_HOST_OFFSET = 214_421.5;
export const T = 3_024_000;

const at = (i) => T + i * 0.001;

/** JSONL of the given line objects, as Python's json.dumps writes them. */
export const jsonLines = (lines) => lines.map((l) => pythonDumps(l)).join("\n") + "\n";

/** The router's lines of request i (its own sequence number i + 1). */
export function routerLines(id, i) {
  const t = at(i);
  const line = (event, dt, ctx) => ({
    role: "router",
    event,
    request_id: i + 1,
    ctx_request_id: ctx,
    rank: 0,
    t: t + dt,
    pid: 31,
    disagg_request_id: id,
    ctx_server: "ctx0:8001",
    gen_server: "gen0:8002",
  });
  return [
    line("arrival", 0, null),
    line("ctx_dispatch", 0.002, null),
    line("gen_dispatch", 0.031, id),
    line("first_token", 0.04 + i / 1000, id),
    line("resp_done", 0.15, id),
  ];
}

/** The ctx worker's lines of request i, on its own host's clock. */
export function ctxLines(id, i) {
  const t = at(i) + CTX_HOST_OFFSET;
  return [
    ["ctx_arrival", 0.004],
    ["ctx_first_scheduled", 0.006],
    ["ctx_first_token", 0.03],
    ["ctx_ready_sent", 0.031],
  ].map(([event, dt]) => ({
    role: "ctx",
    event,
    request_id: id,
    ctx_request_id: id,
    rank: 0,
    t: t + dt,
    pid: 11,
  }));
}

/** The gen worker's lines of request i (rank `rank`'s copy, 0.3 ms later per rank). */
export function genLines(id, i, rank) {
  const dts = [0.033, 0.034, 0.0345, 0.0348, 0.035, 0.036, 0.14 + 0.01 * i];
  const events = i === 2 ? GEN_EVENTS.slice(0, 3) : GEN_EVENTS;
  return events.map((event, k) => ({
    role: "gen",
    event,
    request_id: id,
    ctx_request_id: id,
    rank,
    t: at(i) + dts[k] + rank * 0.0003,
    pid: 22,
  }));
}

/** Request i's disaggregated perf-metrics record: all its stamps on the disaggregated server's clock. */
export function perfRecord(id, i) {
  return disaggRecordLine({
    ctxServer: "ctx0:8001",
    genServer: "gen0:8002",
    t: at(i),
    ms: { dispatch: 2, firstToken: 40 + i },
    ctx: {
      requestId: id,
      ctxRequestId: id,
      t: at(i),
      ms: { serverArrival: 3, arrival: 4, scheduled: 6, firstToken: 30, serverFirstToken: 31, lastToken: 30 },
    },
    gen: {
      requestId: id,
      ctxRequestId: id,
      t: at(i),
      ms: {
        serverArrival: 32,
        arrival: 33,
        scheduled: 35,
        firstToken: 36,
        serverFirstToken: 38,
        lastToken: 140 + 10 * i,
      },
      firstIter: 2,
      lastIter: 40,
    },
    disaggRequestId: id,
  });
}

/**
 * A run of `n` disaggregated requests' time events: the ctx worker's lines of every request, and
 * the router's and the gen worker's (rank 0) of those in `full` only, with the perf-metrics records
 * of `full` (so the Timeline's bars are those). Request i's id is `idOf(i)`. Its files as
 * `{name, content}`, the ctx file written a line at a time as the worker flushes them.
 */
export function manyRequestsRun(n, full, idOf, dir = "run/perf_events") {
  const ctx = [];
  for (let i = 0; i < n; i++) for (const l of ctxLines(idOf(i), i)) ctx.push(pythonDumps(l));
  return [
    {
      name: "run/perf_metrics-disagg-node0-77-20260801T120000Z.jsonl",
      content: full.map((i) => perfRecord(idOf(i), i)).join("\n") + "\n",
    },
    {
      name: `${dir}/disagg_router_pid31.jsonl`,
      content: jsonLines(full.flatMap((i) => routerLines(idOf(i), i))),
    },
    { name: `${dir}/time_events_rank0_pid11.jsonl`, content: ctx.join("\n") + "\n" },
    {
      name: `${dir}/time_events_rank0_pid22.jsonl`,
      content: jsonLines(full.flatMap((i) => genLines(idOf(i), i, 0))),
    },
  ];
}
