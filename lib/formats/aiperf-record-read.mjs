// One line of aiperf `profile_export.jsonl` read into a record (docs/formats.md §aiperf records);
// the record's shape is AiperfRecord in aiperf-records.ts, which re-exports these with types.
// Plain JavaScript so that the aiperf parse thread (lib/ingest/aiperf-parse-worker.mjs), which
// runs without a TypeScript loader, reads records with this very code.
import { metricNumber } from "./aiperf-values.mjs";

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Reads a nanosecond timestamp from the line's text, not from the parsed value: JSON.parse
 * rounds 1.76e18 to the nearest 256 ns, which corrupts equality and ordering of close requests.
 * The first `"key": <integer>` wins; a float there (`1.76e18`, `5.0`) is not an integer. A scan
 * with indexOf rather than a regex, since it runs twice per record: in text JSON.parse accepted,
 * only JSON whitespace can sit around the colon.
 */
export function nsFromText(text, key) {
  const quoted = `"${key}"`;
  for (let at = text.indexOf(quoted); at !== -1; at = text.indexOf(quoted, at + 1)) {
    let i = skipSpace(text, at + quoted.length);
    if (text.charCodeAt(i) !== 0x3a /* : */) continue;
    i = skipSpace(text, i + 1);
    const start = i;
    if (text.charCodeAt(i) === 0x2d /* - */) i++;
    const digits = i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === digits) continue;
    const next = text.charCodeAt(i);
    if (next === 0x2e /* . */ || next === 0x65 /* e */ || next === 0x45 /* E */) continue;
    return BigInt(text.slice(start, i));
  }
  return null;
}

const isDigit = (c) => c >= 0x30 && c <= 0x39;

function skipSpace(text, i) {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}

function nsFromValue(v) {
  // Fallback for float-written timestamps (e.g. 1.76e18): precision is already lost, keep what there is.
  if (typeof v === "number" && Number.isFinite(v)) return BigInt(Math.round(v));
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  return null;
}

function readNs(text, meta, key) {
  if (meta[key] === null || meta[key] === undefined) return null;
  return nsFromText(text, key) ?? nsFromValue(meta[key]);
}

/**
 * A nanosecond metric `"key": {"value": <integer>, …}` read from the line's text (aiperf 0.1.x
 * records carry `min_request_timestamp` / `max_response_timestamp` per record this way).
 */
export function nsMetricFromText(text, key) {
  const quoted = `"${key}"`;
  const at = text.indexOf(quoted);
  if (at === -1) return null;
  let i = skipSpace(text, at + quoted.length);
  if (text.charCodeAt(i) !== 0x3a /* : */) return null;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) !== 0x7b /* { */) return null;
  const close = text.indexOf("}", i);
  if (close === -1) return null;
  return nsFromText(text.slice(i, close + 1), "value");
}

/**
 * aiperf 0.1.x (before its tag rename in ai-dynamo/aiperf 43b78902, "Match GenAI-Perf format")
 * wrote `ttft`/`ttst`; 0.1.0 wrote `benchmark_token_count` for what became `total_osl` and
 * `input_throughput` for `prefill_throughput`.
 */
export const OLD_METRIC_TAGS = {
  ttft: "time_to_first_token",
  ttst: "time_to_second_token",
  benchmark_token_count: "total_osl",
  input_throughput: "prefill_throughput",
};

/** A metric by its tag, or by the short tag aiperf 0.1.x wrote for it. */
function metricOf(metrics, tag) {
  if (metrics[tag] !== undefined) return metrics[tag];
  for (const [old, now] of Object.entries(OLD_METRIC_TAGS)) if (now === tag) return metrics[old];
  return undefined;
}

/**
 * aiperf 0.1.x wrote one wall-clock stamp, `timestamp_ns` (the request's start), and no end:
 * its own max_response_timestamp is that stamp plus request_latency (ai-dynamo/aiperf v0.1.1,
 * aiperf/metrics/types/max_response_metric.py), which the record also carries as a metric.
 */
function startNsOf(text, meta, metrics) {
  return (
    readNs(text, meta, "request_start_ns") ??
    readNs(text, meta, "timestamp_ns") ??
    (metrics.min_request_timestamp !== undefined ? nsMetricFromText(text, "min_request_timestamp") : null)
  );
}

function endNsOf(text, meta, metrics, startNs, e2eMs) {
  const end = readNs(text, meta, "request_end_ns");
  if (end !== null) return end;
  if (metrics.max_response_timestamp !== undefined) {
    const max = nsMetricFromText(text, "max_response_timestamp");
    if (max !== null) return max;
  }
  // Only where the record has no end of its own (0.1.x): start + latency, as aiperf did.
  if (startNs !== null && e2eMs !== null && meta.request_start_ns === undefined)
    return startNs + BigInt(Math.round(e2eMs * 1e6));
  return null;
}

/**
 * Cancelled: aiperf's `was_cancelled`; versions that write no such flag (0.1.x) report a
 * cancellation only as error 499 `RequestCancellationError` (aiperf's --request-cancellation-rate).
 */
function cancelledOf(meta, error) {
  if (typeof meta.was_cancelled === "boolean") return meta.was_cancelled;
  return error !== null && (error.type === "RequestCancellationError" || error.code === 499);
}

function readError(raw) {
  if (!isObject(raw)) return null;
  const type = typeof raw.type === "string" && raw.type !== "" ? raw.type : null;
  const code = typeof raw.code === "number" ? raw.code : null;
  const message = typeof raw.message === "string" ? raw.message : "";
  return { type: type ?? (code !== null ? `HTTP ${code}` : "Error"), code, message };
}

/** Said once per file with how many records had it (docs/metrics.md §Requests). */
export const NEGATIVE_TOKENS = "negative token count read as not recorded";

/**
 * No real count of tokens is past 2^53 (one that is would overflow the throughput sums to
 * Infinity) or below 0: either is a broken writer's value and reads as not recorded.
 */
export function tokenCount(v, badValue) {
  if (v === null || v > Number.MAX_SAFE_INTEGER) return null;
  if (v < 0) {
    badValue(NEGATIVE_TOKENS);
    return null;
  }
  return v;
}

const ignore = () => {};

function idText(v) {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/** A turn index is a non-negative integer; anything else is a writer's slip and reads as absent. */
function turnIndexOf(v) {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0x7fffffff ? v : null;
}

/**
 * aiperf's client-side queue wait of one record, its `credit_to_start_latency` (aiperf
 * src/aiperf/metrics/derived_latency.py): `request_start_ns − credit_issued_ns` in ms, both
 * stamps as float64 as aiperf's column store holds them (so the figures are aiperf's to the last
 * digit), clamped at 0 as aiperf clamps clock skew. `credit_issued_ns` is when the timing manager
 * issued the credit, after the concurrency slot was taken (src/aiperf/credit/issuer.py);
 * `request_start_ns` when the worker sent the request. Null without either stamp (aiperf before
 * 0.6, fixed-schedule runs): not measured, never 0.
 */
export function queueWaitMs(text, meta, startNs) {
  if (startNs === null || meta.request_start_ns === undefined || meta.request_start_ns === null) return null;
  const issued = readNs(text, meta, "credit_issued_ns");
  if (issued === null) return null;
  return Math.max(Number(startNs) - Number(issued), 0) / 1e6;
}

/** A stamp the record states itself (read as readNs reads it) */
const isStamp = (v) => v !== null && v !== undefined;

/** Parses one record; a string (the reason) when the line is not an aiperf record. */
export function parseAiperfRecord(value, text, badValue = ignore) {
  if (!isObject(value)) return "not a JSON object";
  const meta = value.metadata;
  if (!isObject(meta)) return "no metadata object";
  const metrics = isObject(value.metrics) ? value.metrics : {};
  const id = meta.x_request_id;
  const ttftMs = metricNumber(metricOf(metrics, "time_to_first_token"));
  const e2eMs = metricNumber(metrics.request_latency);
  const outputTokens = tokenCount(metricNumber(metrics.output_sequence_length), badValue);
  const error = readError(value.error);
  const startNs = startNsOf(text, meta, metrics);
  const endNs = endNsOf(text, meta, metrics, startNs, e2eMs);
  // 0.1.x named the phase `credit_phase`, later `benchmark_phase`.
  const phase = meta.benchmark_phase ?? meta.credit_phase;
  return {
    requestId: typeof id === "string" ? id : typeof id === "number" ? String(id) : null,
    phase: phase === "warmup" ? "warmup" : "profiling",
    cancelled: cancelledOf(meta, error),
    startNs,
    endNs,
    spanStamped:
      startNs !== null && endNs !== null && isStamp(meta.request_start_ns) && isStamp(meta.request_end_ns),
    ttftMs,
    e2eMs,
    itlMs: metricNumber(metrics.inter_token_latency) ?? derivedItlMs(ttftMs, e2eMs, outputTokens),
    inputTokens: tokenCount(
      metricNumber(metrics.input_sequence_length) ?? metricNumber(metrics.error_isl),
      badValue,
    ),
    outputTokens,
    error,
    conversationId: idText(meta.conversation_id) ?? idText(meta.x_correlation_id),
    turnIndex: turnIndexOf(meta.turn_index),
    cachedTokens: tokenCount(metricNumber(metrics.usage_prompt_cache_read_tokens), badValue),
    workerId: typeof meta.worker_id === "string" && meta.worker_id !== "" ? meta.worker_id : null,
    sessionId: idText(meta.x_correlation_id) ?? idText(meta.conversation_id),
    parentSessionId: idText(meta.parent_correlation_id),
    agentDepth: turnIndexOf(meta.agent_depth),
    queueWaitMs: queueWaitMs(text, meta, startNs),
  };
}

/**
 * aiperf's own definition, (latency − TTFT) / (OSL − 1), for records that omit the tag (older
 * or trimmed files). Needs OSL ≥ 2: one token has no gap, and dividing by 0 would invent one.
 */
export function derivedItlMs(ttftMs, e2eMs, outputTokens) {
  if (ttftMs === null || e2eMs === null || outputTokens === null || outputTokens < 2) return null;
  return (e2eMs - ttftMs) / (outputTokens - 1);
}
