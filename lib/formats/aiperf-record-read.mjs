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
function tokenCount(v, badValue) {
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

/** Parses one record; a string (the reason) when the line is not an aiperf record. */
export function parseAiperfRecord(value, text, badValue = ignore) {
  if (!isObject(value)) return "not a JSON object";
  const meta = value.metadata;
  if (!isObject(meta)) return "no metadata object";
  const metrics = isObject(value.metrics) ? value.metrics : {};
  const id = meta.x_request_id;
  const ttftMs = metricNumber(metrics.time_to_first_token);
  const e2eMs = metricNumber(metrics.request_latency);
  const outputTokens = tokenCount(metricNumber(metrics.output_sequence_length), badValue);
  return {
    requestId: typeof id === "string" ? id : typeof id === "number" ? String(id) : null,
    phase: meta.benchmark_phase === "warmup" ? "warmup" : "profiling",
    cancelled: meta.was_cancelled === true,
    startNs: readNs(text, meta, "request_start_ns"),
    endNs: readNs(text, meta, "request_end_ns"),
    ttftMs,
    e2eMs,
    itlMs: metricNumber(metrics.inter_token_latency) ?? derivedItlMs(ttftMs, e2eMs, outputTokens),
    inputTokens: tokenCount(
      metricNumber(metrics.input_sequence_length) ?? metricNumber(metrics.error_isl),
      badValue,
    ),
    outputTokens,
    error: readError(value.error),
    conversationId: idText(meta.conversation_id) ?? idText(meta.x_correlation_id),
    turnIndex: turnIndexOf(meta.turn_index),
    cachedTokens: tokenCount(metricNumber(metrics.usage_prompt_cache_read_tokens), badValue),
    workerId: typeof meta.worker_id === "string" && meta.worker_id !== "" ? meta.worker_id : null,
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
