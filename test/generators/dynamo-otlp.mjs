/**
 * Synthetic Dynamo OpenTelemetry spans as an OTLP JSON export (ExportTraceServiceRequest:
 * resourceSpans → scopeSpans → spans), shaped as Dynamo's `tracing` spans reach the OTLP exporter
 * through `tracing-opentelemetry` (every span field an attribute, span kinds from `otel.kind`):
 * - frontend (`service.name` dynamo-frontend): `http-request` (ai-dynamo/dynamo
 *   `lib/runtime/src/logging.rs` `make_inference_request_span`: method, uri, x_request_id,
 *   request_id, model, input_tokens, output_tokens, ttft_ms, prefill_worker_id,
 *   decode_worker_id), `kv_router.select_worker` and, per phase, `kv_router.route_request`
 *   (`lib/llm/src/kv_router/`: request_id, worker_id, dp_rank, overlap_blocks, phase,
 *   request.attempt, request.outcome);
 * - each worker (dynamo-worker-prefill, dynamo-worker-decode): `handle_payload`
 *   (`make_handle_payload_span`: x_request_id, request_id, component, endpoint, namespace,
 *   instance_id) and `engine.generate` (the backend's `EngineAdapter`: model, input_tokens,
 *   disagg_role, ttft_ms as a two-decimal string, output_tokens, finish_reason).
 *
 * The spans follow given client records (aiperf's): the frontend receives each request
 * `sendGapMs(i)` after the client sent it and reports a TTFT `ttftGapMs(i)` and a total time
 * `e2eGapMs(i)` shorter than the client saw, so the gaps are known exactly.
 *
 * opts: clients [{x, startNs (BigInt), ttftMs, e2eMs}], noIdEvery (every k-th trace carries no
 * x_request_id; 0 none), document (one pretty-printed document instead of JSON lines), seed.
 * Returns { text, gaps: [{x, sendMs, ttftMs, e2eMs} | null per client] }.
 */

const sendGap = (i) => 0.25 + (i % 5) * 0.1;
const ttftGap = (i) => 0.5 + (i % 4) * 0.25;
const e2eGap = (i) => 1 + (i % 3) * 0.5;

const hex = (n, width) => n.toString(16).padStart(width, "0");
const ns = (big) => big.toString();
const msNs = (ms) => BigInt(Math.round(ms * 1e6));

const attr = (key, v) =>
  typeof v === "string"
    ? { key, value: { stringValue: v } }
    : Number.isInteger(v)
      ? { key, value: { intValue: String(v) } }
      : typeof v === "boolean"
        ? { key, value: { boolValue: v } }
        : { key, value: { doubleValue: v } };

function span(traceId, spanId, parent, name, kind, start, end, attrs) {
  return {
    traceId,
    spanId,
    parentSpanId: parent ?? "",
    name,
    kind,
    startTimeUnixNano: ns(start),
    endTimeUnixNano: ns(end),
    attributes: Object.entries(attrs)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => attr(k, v)),
    status: {},
  };
}

const resource = (service, spans) => ({
  resource: { attributes: [attr("service.name", service)] },
  scopeSpans: [{ scope: { name: "dynamo" }, spans }],
});

export function dynamoOtlpSpans(opts) {
  const clients = opts.clients;
  const noIdEvery = opts.noIdEvery ?? 0;
  const frontend = [];
  const prefill = [];
  const decode = [];
  const gaps = [];
  clients.forEach((c, i) => {
    const traceId = hex(0xabc000 + i, 32);
    const id = (k) => hex((i + 1) * 16 + k, 16);
    const x = noIdEvery > 0 && i % noIdEvery === noIdEvery - 1 ? undefined : c.x;
    const recv = c.startNs + msNs(sendGap(i));
    const serverTtft = c.ttftMs - ttftGap(i);
    const total = c.e2eMs - e2eGap(i);
    const end = recv + msNs(total);
    const requestId = `6f1c${hex(i, 4)}-0000-4000-8000-${hex(i, 12)}`;
    frontend.push(
      span(traceId, id(0), null, "http-request", 2, recv, end, {
        method: "POST",
        uri: "/v1/chat/completions",
        version: "HTTP/1.1",
        x_request_id: x,
        request_id: requestId,
        model: "Qwen/Qwen3-0.6B",
        input_tokens: 512 + i,
        output_tokens: 64 + i,
        ttft_ms: Math.round(serverTtft * 1000) / 1000,
        prefill_worker_id: "7587888052145150001",
        decode_worker_id: "7587888052145150002",
      }),
    );
    // Routing: select a prefill worker, dispatch, then select and dispatch to the decode worker.
    const sel1 = recv + msNs(0.2);
    frontend.push(span(traceId, id(1), id(0), "kv_router.select_worker", 1, sel1, sel1 + msNs(0.15), {}));
    const pre0 = sel1 + msNs(0.2);
    const preEnd = recv + msNs(serverTtft * 0.8);
    frontend.push(
      span(traceId, id(2), id(0), "kv_router.route_request", 3, pre0, preEnd, {
        request_id: requestId,
        worker_id: 7587888052145150001,
        dp_rank: 0,
        overlap_blocks: i % 7,
        phase: "Prefill",
        "request.attempt": 0,
        "request.outcome": "success",
      }),
    );
    prefill.push(
      span(traceId, id(3), id(2), "handle_payload", 2, pre0 + msNs(0.1), preEnd - msNs(0.05), {
        x_request_id: x,
        request_id: requestId,
        component: "prefill",
        endpoint: "generate",
        namespace: "dynamo",
        instance_id: 7587888052145150001,
      }),
      span(traceId, id(4), id(3), "engine.generate", 1, pre0 + msNs(0.2), preEnd - msNs(0.1), {
        model: "Qwen/Qwen3-0.6B",
        input_tokens: 512 + i,
        disagg_role: "prefill",
        ttft_ms: ((serverTtft * 0.8 - 0.6) * 0.9).toFixed(2),
        output_tokens: 1,
        finish_reason: "Length",
      }),
    );
    const dec0 = preEnd + msNs(0.1);
    frontend.push(
      span(traceId, id(5), id(0), "kv_router.route_request", 3, dec0, end - msNs(0.1), {
        request_id: requestId,
        worker_id: 7587888052145150002,
        dp_rank: 0,
        overlap_blocks: 0,
        phase: "Decode",
        "request.attempt": 0,
        "request.outcome": "success",
      }),
    );
    decode.push(
      span(traceId, id(6), id(5), "handle_payload", 2, dec0 + msNs(0.1), end - msNs(0.2), {
        x_request_id: x,
        request_id: requestId,
        component: "decode",
        endpoint: "generate",
        namespace: "dynamo",
        instance_id: 7587888052145150002,
      }),
      span(traceId, id(7), id(6), "engine.generate", 1, dec0 + msNs(0.2), end - msNs(0.3), {
        model: "Qwen/Qwen3-0.6B",
        input_tokens: 512 + i,
        disagg_role: "decode",
        ttft_ms: (serverTtft * 0.2).toFixed(2),
        output_tokens: 64 + i,
        finish_reason: "Stop",
      }),
    );
    gaps.push({ x: x ?? null, sendMs: sendGap(i), ttftMs: ttftGap(i), e2eMs: e2eGap(i) });
  });
  const exports = [
    { resourceSpans: [resource("dynamo-frontend", frontend)] },
    { resourceSpans: [resource("dynamo-worker-prefill", prefill), resource("dynamo-worker-decode", decode)] },
  ];
  const text = opts.document
    ? JSON.stringify({ resourceSpans: exports.flatMap((e) => e.resourceSpans) }, null, 2)
    : exports.map((e) => JSON.stringify(e)).join("\n") + "\n";
  return { text, gaps };
}

/** aiperf records (JSONL text) → the client views the spans follow (profiling, succeeded). */
export function clientsOfAiperf(jsonl) {
  const out = [];
  for (const raw of jsonl.trim().split("\n")) {
    const r = JSON.parse(raw);
    if (r.metadata.benchmark_phase !== "profiling" || !r.metrics.request_latency) continue;
    out.push({
      x: r.metadata.x_request_id,
      // The nanosecond digits as written: a double would round them.
      startNs: BigInt(/"request_start_ns":(\d+)/.exec(raw)[1]),
      ttftMs: r.metrics.time_to_first_token.value,
      e2eMs: r.metrics.request_latency.value,
    });
  }
  return out;
}
