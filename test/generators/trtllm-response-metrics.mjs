/**
 * TensorRT-LLM's per-request metrics as its serving layer returns them to the client, and the
 * client files that keep them, generated (no code or data of the producers is copied). Followed:
 *
 * - `tensorrt_llm/serve/perf_metrics.py` (NVIDIA/TensorRT-LLM, PR #16668, as stored at commit
 *   07fe63112763b8fedd04ca58cfcbab38de1d93b0): `build_metrics_headers(record)` formats a
 *   phase-keyed record: per phase, `X-TRTLLM-Start-End-Time` items `{phase}-start;ts=%.9f`
 *   (`arrival_time`) and `{phase}-end;ts=%.9f` (`last_token_time`); `Server-Timing` items
 *   `{phase}_{name};dur=%.6f` for queue (arrival → first scheduled), ttft (arrival → first
 *   token), e2e (arrival → last token), kv_transfer (transfer start → end), in ms, each only when
 *   ≥ 0 and finite (`_elapsed_ms`); `X-TRTLLM-Step-Metrics` items
 *   `{phase}-step-{iter}-{forward|sample|gpu-forward|gpu-sample};dur=%.6f` and
 *   `X-TRTLLM-Ctx-Chunk-Metrics` items `{phase}-ctx-chunk-{index}-…`; items joined by ", ".
 *   `build_metrics_sse_event(headers)` writes `event: trtllm.perf_metrics\ndata: <json.dumps(headers,
 *   separators=(",", ":"))>\n\n`, appended by `PerfMetricsMiddleware` to the last body chunk of a
 *   streamed response (after `data: [DONE]`); a non-streamed response gets the headers.
 * - `tests/unittest/llmapi/apps/test_request_metrics.py` `_record()`: the record whose headers
 *   `test_metrics_headers_use_metric_list_syntax` asserts (arrival 1.0 s, scheduled 1.01, first
 *   token 1.02, last token 1.05; step iter 3: forward 2 ms, sample 1 ms, GPU 1.5 / 0.5 ms; context
 *   chunk 0: forward 4 ms, sample 1 ms, GPU 3 / 0.25 ms).
 * - ai-dynamo/aiperf's raw export (`--export-level raw`, `profile_export_raw.jsonl`):
 *   `src/aiperf/post_processors/raw_record_writer_processor.py` (commit
 *   1286d559bced894cdbf4b16a10dc2a90fd4df9be) writes one `RawRecordInfo` per line,
 *   `model_dump(exclude_none=True)`: `metadata` (`MetricRecordMetadata`, with `x_request_id`),
 *   `start_perf_ns`, `payload`, `request_headers`, `status`, `responses`, `error`;
 *   `response_headers=None`, so dropped. `responses` are the SSE messages
 *   `src/aiperf/transports/sse_utils.py` `AsyncSSEStreamReader` read to the stream's end,
 *   `{perf_ns, packets: [{name, value}]}`, the post-[DONE] event included.
 */

/** The phase-keyed record of `_record()` (one `server` phase). */
export function recordFixture({
  arrival = 1.0,
  scheduled = 1.01,
  firstToken = 1.02,
  lastToken = 1.05,
  steps = [
    {
      iter: 3,
      forward_start_time: 1.021,
      forward_end_time: 1.023,
      sample_start_time: 1.024,
      sample_end_time: 1.025,
      gpu_forward_time: 1.5,
      gpu_sample_time: 0.5,
    },
  ],
  chunks = [
    {
      forward_start_time: 1.011,
      forward_end_time: 1.015,
      sample_start_time: 1.016,
      sample_end_time: 1.017,
      gpu_forward_time: 3.0,
      gpu_sample_time: 0.25,
    },
  ],
} = {}) {
  return {
    schema_version: 1,
    request_id: "42",
    status: "complete",
    phases: {
      server: {
        timing_metrics: {
          arrival_time: arrival,
          first_scheduled_time: scheduled,
          first_token_time: firstToken,
          last_token_time: lastToken,
        },
        time_breakdown_metrics: { step_metrics: steps, ctx_chunk_metrics: chunks },
      },
    },
  };
}

/** `_elapsed_ms`: (end − start) × 1000, or the value itself without an end; null unless ≥ 0 and finite. */
function elapsedMs(values, start, end) {
  const a = values[start];
  if (typeof a !== "number") return null;
  let v = a;
  if (end !== undefined) {
    const b = values[end];
    if (typeof b !== "number") return null;
    v = (b - a) * 1000;
  }
  return v >= 0 && Number.isFinite(v) ? v : null;
}

/** `build_metrics_headers(record)`. */
export function buildMetricsHeaders(record) {
  const values = {
    "Server-Timing": [],
    "X-TRTLLM-Start-End-Time": [],
    "X-TRTLLM-Step-Metrics": [],
    "X-TRTLLM-Ctx-Chunk-Metrics": [],
  };
  for (const [phase, pr] of Object.entries(record.phases ?? {})) {
    const timing = pr.timing_metrics ?? {};
    for (const [name, field] of [
      ["start", "arrival_time"],
      ["end", "last_token_time"],
    ])
      if (timing[field] != null)
        values["X-TRTLLM-Start-End-Time"].push(`${phase}-${name};ts=${timing[field].toFixed(9)}`);
    const ranges =
      phase === "disagg"
        ? [
            ["queue", "server_arrival_time", "ctx_dispatch_time"],
            ["ttft", "server_arrival_time", "server_first_token_time"],
          ]
        : [
            ["queue", "arrival_time", "first_scheduled_time"],
            ["ttft", "arrival_time", "first_token_time"],
            ["e2e", "arrival_time", "last_token_time"],
            ["kv_transfer", "kv_cache_transfer_start", "kv_cache_transfer_end"],
          ];
    for (const [name, start, end] of ranges) {
      const d = elapsedMs(timing, start, end);
      if (d !== null) values["Server-Timing"].push(`${phase}_${name};dur=${d.toFixed(6)}`);
    }
    const breakdown = pr.time_breakdown_metrics ?? {};
    for (const [header, key, label] of [
      ["X-TRTLLM-Step-Metrics", "step_metrics", "step"],
      ["X-TRTLLM-Ctx-Chunk-Metrics", "ctx_chunk_metrics", "ctx-chunk"],
    ])
      (breakdown[key] ?? []).forEach((m, index) => {
        const item = key === "step_metrics" ? (m.iter ?? index) : index;
        for (const [name, d] of [
          ["forward", elapsedMs(m, "forward_start_time", "forward_end_time")],
          ["sample", elapsedMs(m, "sample_start_time", "sample_end_time")],
          ["gpu-forward", elapsedMs(m, "gpu_forward_time")],
          ["gpu-sample", elapsedMs(m, "gpu_sample_time")],
        ])
          if (d !== null) values[header].push(`${phase}-${label}-${item}-${name};dur=${d.toFixed(6)}`);
      });
    // A phase rebuilt from a worker's headers keeps them (`metrics_headers`): appended as they
    // are, after the items rebuilt from its stamps, so an item may come twice.
    const inherited = pr.metrics_headers ?? {};
    for (const header of Object.keys(values)) if (inherited[header]) values[header].push(inherited[header]);
  }
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, items]) => items.length > 0)
      .map(([h, items]) => [h, items.join(", ")]),
  );
}

/** `build_metrics_sse_event(headers)`: the bytes appended after `data: [DONE]\n\n`. */
export function buildMetricsSseEvent(headers) {
  if (Object.keys(headers).length === 0) return "";
  return `event: trtllm.perf_metrics\ndata: ${JSON.stringify(headers)}\n\n`;
}

/** A streamed chat completion's SSE messages (text of each, without the blank line). */
function chatChunks(tokens) {
  return tokens.map(
    (t, i) =>
      `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: t }, finish_reason: i === tokens.length - 1 ? "stop" : null }] })}`,
  );
}

/** `SSEMessage.parse(raw, perf_ns)` as aiperf stores it: one packet per `name: value` line. */
function sseMessageJson(raw, perfNs) {
  return {
    perf_ns: perfNs,
    packets: raw.split("\n").map((line) => {
      const i = line.indexOf(":");
      return { name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() };
    }),
  };
}

/**
 * One line of aiperf's raw export for a streamed request: its chunks, `[DONE]`, and (when
 * `headers` is given) the `trtllm.perf_metrics` event; `eventData` replaces the event's JSON.
 */
export function aiperfRawLine({
  xRequestId,
  headers,
  eventData,
  startPerfNs = 1_000_000_000,
  requestStartNs = 1_780_000_000_000_000_000,
  tokens = ["Hello", " world"],
}) {
  const raws = [...chatChunks(tokens), "data: [DONE]"];
  if (eventData !== undefined) raws.push(`event: trtllm.perf_metrics\ndata: ${eventData}`);
  else if (headers && Object.keys(headers).length > 0) raws.push(buildMetricsSseEvent(headers).trim());
  const metadata = {
    session_num: 0,
    ...(xRequestId !== undefined ? { x_request_id: xRequestId } : {}),
    x_correlation_id: "corr-0",
    conversation_id: "conv-0",
    turn_index: 0,
    request_start_ns: requestStartNs,
    request_end_ns: requestStartNs + 60_000_000,
    worker_id: "worker_0",
    record_processor_id: "record_processor_0",
    benchmark_phase: "profiling",
  };
  return JSON.stringify({
    metadata,
    start_perf_ns: startPerfNs,
    payload: { model: "Qwen/Qwen3-0.6B", messages: [{ role: "user", content: "hi" }], stream: true },
    request_headers: { "Content-Type": "application/json", "X-TRTLLM-return-metrics": "1" },
    status: 200,
    responses: raws.map((r, i) => sseMessageJson(r, startPerfNs + (i + 1) * 1_000_000)),
  });
}

/** `curl -i` of a non-streamed response carrying the metrics headers. */
export function curlNonStreamed(headers, { requestId } = {}) {
  const lines = [
    "HTTP/1.1 200 OK",
    "date: Sat, 05 Dec 2026 10:00:00 GMT",
    "server: uvicorn",
    "content-type: application/json",
    ...(requestId ? [`x-request-id: ${requestId}`] : []),
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    JSON.stringify({ id: "cmpl-1", object: "text_completion", choices: [{ index: 0, text: "Hello world" }] }),
  ];
  return lines.join("\r\n") + "\r\n";
}

/** `curl -i -N` of a streamed response: headers, chunks, `[DONE]`, the metrics event. */
export function curlStreamed(headers, { requestId, withHeaders = true } = {}) {
  const head = withHeaders
    ? [
        "HTTP/1.1 200 OK",
        "content-type: text/event-stream; charset=utf-8",
        ...(requestId ? [`x-request-id: ${requestId}`] : []),
        "transfer-encoding: chunked",
        "",
        "",
      ].join("\r\n")
    : "";
  const body = [...chatChunks(["Hello", " world"]), "data: [DONE]"].map((m) => m + "\n\n").join("");
  return head + body + buildMetricsSseEvent(headers);
}

/**
 * `build_metrics_record_from_headers(headers, phase, request_id)`: the disaggregation server's
 * record of one worker's response. Every `server_` / `server-` in the four fields becomes
 * `{phase}_` / `{phase}-`; `{phase}-start` / `-end` give `arrival_time` / `last_token_time`;
 * first scheduled, first token and (when no end) last token are the arrival plus the queue,
 * TTFT and E2E durations. The KV-transfer duration is not turned back into stamps.
 */
export function recordFromHeaders(headers, phase, requestId = "") {
  const metricsHeaders = {};
  for (const h of [
    "Server-Timing",
    "X-TRTLLM-Start-End-Time",
    "X-TRTLLM-Step-Metrics",
    "X-TRTLLM-Ctx-Chunk-Metrics",
  ])
    if (headers[h])
      metricsHeaders[h] = headers[h].replaceAll("server_", `${phase}_`).replaceAll("server-", `${phase}-`);
  if (Object.keys(metricsHeaders).length === 0) return null;
  const timing = {};
  const fields = { [`${phase}-start`]: "arrival_time", [`${phase}-end`]: "last_token_time" };
  for (const item of (metricsHeaders["X-TRTLLM-Start-End-Time"] ?? "").split(",")) {
    const [name, ts] = item.trim().split(";ts=");
    if (ts !== undefined && name in fields) timing[fields[name]] = Number(ts);
  }
  const durations = {};
  for (const item of (metricsHeaders["Server-Timing"] ?? "").split(",")) {
    const [name, dur] = item.trim().split(";dur=");
    if (dur !== undefined && name.startsWith(`${phase}_`))
      durations[name.slice(phase.length + 1)] = Number(dur) / 1000;
  }
  if (timing.arrival_time !== undefined)
    for (const [name, field] of [
      ["queue", "first_scheduled_time"],
      ["ttft", "first_token_time"],
      ["e2e", "last_token_time"],
    ])
      if (name in durations && timing[field] === undefined)
        timing[field] = timing.arrival_time + durations[name];
  const phaseRecord = { metrics_headers: metricsHeaders };
  if (Object.keys(timing).length > 0) phaseRecord.timing_metrics = timing;
  return {
    schema_version: 1,
    request_id: requestId,
    status: "complete",
    metrics_headers: metricsHeaders,
    phases: { [phase]: phaseRecord },
  };
}

/** `combine_disagg_metrics(request_id, disagg_phase, ctx_record, gen_record, disagg_request_id)`. */
export function combineDisaggMetrics(requestId, disaggPhase, ctxRecord, genRecord, disaggRequestId) {
  const phases = { disagg: disaggPhase };
  const add = (name, record) => {
    const pr = { ...(Object.values(record.phases ?? {})[0] ?? {}), request_id: record.request_id };
    if (record.ctx_request_id != null) pr.ctx_request_id = record.ctx_request_id;
    if (record.metrics_headers) pr.metrics_headers = record.metrics_headers;
    phases[name] = pr;
  };
  if (ctxRecord) add("ctx", ctxRecord);
  if (genRecord) add("gen", genRecord);
  return {
    schema_version: 1,
    request_id: requestId,
    status: "complete",
    phases,
    ...(disaggRequestId != null ? { disagg_request_id: disaggRequestId } : {}),
  };
}

/**
 * One disaggregated request arriving at the disaggregation server at `t` s, through the chain
 * TensorRT-LLM's serving code runs: each worker formats its own record (phase `server`) with
 * `build_metrics_headers`, the disaggregation server rebuilds each as a `ctx` / `gen` phase from
 * those headers (`build_metrics_record_from_headers`), adds its own `disagg` phase
 * (`on_resp_done`: `arrival_time` and `server_arrival_time` its arrival, `ctx_dispatch_time`,
 * `server_first_token_time`, `last_token_time` its last chunk) and combines them
 * (`combine_disagg_metrics`); its middleware formats that record for the client. Offsets in ms
 * from `t`: ctx dispatch 0.5; ctx arrival 3, scheduled 6, first token 10 (its last token), one
 * context chunk (forward 2, sample 1); gen arrival 28, KV transfer 36 → 45, scheduled 55, first
 * token 66, last token 200, one step (iter 7, forward 3, sample 1); disagg first token 78, last
 * chunk 201. `kv: false` leaves the transfer out (a request with no transfer).
 */
export function disaggRecordFixture(t, { kv = true, disaggRequestId = 1 } = {}) {
  const at = (ms) => t + ms / 1000;
  const ctxWorker = {
    request_id: "ctx-1",
    phases: {
      server: {
        timing_metrics: {
          arrival_time: at(3),
          first_scheduled_time: at(6),
          first_token_time: at(10),
          last_token_time: at(10),
        },
        time_breakdown_metrics: {
          step_metrics: [],
          ctx_chunk_metrics: [
            {
              forward_start_time: at(6),
              forward_end_time: at(8),
              sample_start_time: at(8),
              sample_end_time: at(9),
              gpu_forward_time: 1.5,
              gpu_sample_time: 0.5,
            },
          ],
        },
      },
    },
  };
  const genWorker = {
    request_id: "gen-1",
    phases: {
      server: {
        timing_metrics: {
          arrival_time: at(28),
          ...(kv ? { kv_cache_transfer_start: at(36), kv_cache_transfer_end: at(45) } : {}),
          first_scheduled_time: at(55),
          first_token_time: at(66),
          last_token_time: at(200),
        },
        time_breakdown_metrics: {
          step_metrics: [
            {
              iter: 7,
              forward_start_time: at(66),
              forward_end_time: at(69),
              sample_start_time: at(69),
              sample_end_time: at(70),
              gpu_forward_time: 2.5,
              gpu_sample_time: 0.75,
            },
          ],
          ctx_chunk_metrics: [],
        },
      },
    },
  };
  const disaggPhase = {
    ctx_server: "http://ctx0:8001",
    gen_server: "http://gen0:8002",
    timing_metrics: {
      arrival_time: t,
      last_token_time: at(201),
      server_arrival_time: t,
      ctx_dispatch_time: at(0.5),
      server_first_token_time: at(78),
    },
  };
  return combineDisaggMetrics(
    String(disaggRequestId),
    disaggPhase,
    recordFromHeaders(buildMetricsHeaders(ctxWorker), "ctx", "ctx-1"),
    recordFromHeaders(buildMetricsHeaders(genWorker), "gen", "gen-1"),
    disaggRequestId,
  );
}
