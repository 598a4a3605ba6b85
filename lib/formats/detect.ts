import type { Detected } from "./kinds";
import { ROUTING_MARK } from "./router-log";
import { DYNAMO_TRACE_SCHEMA } from "./dynamo-request-trace";
import { benchArrayKind, benchDocumentKind, benchLineKind, sniffBenchDocument } from "./detect-bench";
import { PARSE_FAILED, parseJsonText } from "./json-lines";
import { isInferencexSweepCsvHeader } from "./inferencex-result";
import { headAsUtf8 } from "./text-encoding";
import { sniffPhaseKeyed } from "./trtllm-phases";
import { sideFileFormatOf, sniffSideFileKeys } from "./trtllm-side-files";
import { isRunMetadata } from "./engine-parallelism";
import { isAiperfRawRecord, looksLikeHttpCapture } from "./trtllm-response-metrics";
import { benchConsoleTool } from "./bench-console";

/** How many leading (decompressed) bytes detection looks at. */
export const DETECT_HEAD_BYTES = 1 << 20;

const UNKNOWN_TEXT: Detected = { kind: "unknown", format: "text" };

/**
 * Tells what a file is from its first bytes alone (docs/formats.md §Detection: content, never the name).
 * `head` is at most DETECT_HEAD_BYTES of the decompressed file; `complete` says whether it is
 * the whole file. Never throws: anything it cannot place is `unknown`.
 */
export function detectKind(head: Buffer, complete: boolean): Detected {
  return detectHead(head, complete).detected;
}

/**
 * `detectKind` and `isPartialJsonDocument` of one head, its bytes decoded to text once for both
 * (each decoded the whole megabyte: the larger part of an upload's detection, issue 31).
 */
export function detectHead(head: Buffer, complete: boolean): { detected: Detected; partial: boolean } {
  let utf8: Buffer;
  let text: string;
  try {
    utf8 = headAsUtf8(head);
    text = utf8.toString("utf8");
  } catch {
    return { detected: { kind: "unknown", format: "binary" }, partial: false };
  }
  let detected: Detected;
  try {
    detected = detect(utf8, text, complete);
  } catch {
    detected = { kind: "unknown", format: "binary" };
  }
  return { detected, partial: partialDocument(text, complete) };
}

function detect(head: Buffer, decoded: string, complete: boolean): Detected {
  if (looksBinary(head)) return { kind: "unknown", format: "binary" };
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed.trim() === "") return { kind: "unknown", format: "empty" };
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    const json = detectJson(trimmed, complete);
    // `[2026-07-08 16:43:35] …` is a log line, not a JSON array.
    if (json.kind !== "unknown" || !/^\[\d{4}-\d\d-\d\d|^\[\d\d:\d\d/.test(trimmed)) return json;
    return detectText(trimmed);
  }
  return detectText(trimmed);
}

function looksBinary(head: Buffer): boolean {
  const n = Math.min(head.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) return true;
    // ANSI colour codes (ESC [): Dynamo's and many servers' logs keep them even in a file.
    if (b === 0x1b && head[i + 1] === 0x5b) continue;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  if (n > 0 && control / n > 0.05) return true;
  // Invalid UTF-8 shows up as replacement characters.
  const sample = head.subarray(0, n).toString("utf8");
  let bad = 0;
  for (let i = 0; i < sample.length; i++) if (sample.charCodeAt(i) === 0xfffd) bad++;
  return sample.length > 0 && bad / sample.length > 0.05;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** LF, CRLF or a lone CR (old Mac tools), as the line readers split. */
const LINE_END = /\r\n|\r|\n/;

function detectJson(text: string, complete: boolean): Detected {
  const lines = text.split(LINE_END);
  const first = lines[0].trim();
  const firstIsWholeLine = lines.length > 1 || complete;
  const firstValue = firstIsWholeLine ? parseJsonText(first) : PARSE_FAILED;
  const moreLines = lines.slice(1).some((l) => l.trim() !== "");

  if (isObject(firstValue) && isDynamoJsonLog(firstValue) && looksLikeRouterLog(text))
    return { kind: "router-log", format: "jsonl" };
  if (isObject(firstValue) && (moreLines || lineRecordKind(firstValue))) {
    const kind = lineRecordKind(firstValue);
    if (kind) return kind;
    // A one-line JSON document followed by nothing is classified as a document below.
  }
  // Lines that are each a JSON array of TensorRT-LLM records: a script polling the older
  // `/perf_metrics` endpoint (which empties itself on every GET) appends one array per poll.
  if (Array.isArray(firstValue) && moreLines) {
    const polled = firstPolledObject(lines, complete);
    if (polled && isTrtllmRecord(polled)) return { kind: "trtllm-perf-metrics", format: "jsonl" };
    // `/metrics` iteration stats polled the same way: one array per line.
    const side = sideFileFormatOf(polled);
    if (side) return { kind: "trtllm-side-file", format: side };
  }
  // Any other line that starts with `[` is a JSON array on one line: sniffing its keys would
  // call it JSONL and the whole array would be read as one line.
  if (firstValue === PARSE_FAILED && !firstIsWholeLine && first[0] === "{") {
    // The first line does not fit in the head (huge step arrays): sniff its keys instead. A
    // benchmark tool's one-line report has `metadata` and `metrics` too: its own keys go first.
    const sniffed = sniffBenchDocument(first) ? null : sniffRecordKeys(first);
    if (sniffed) return sniffed;
  }
  const doc = complete ? parseJsonText(text.trim()) : PARSE_FAILED;
  if (doc !== PARSE_FAILED) return documentKind(doc);
  return sniffDocument(text);
}

/**
 * The first object in the head's whole lines that are JSON arrays (polls that found nothing are
 * empty arrays; a line that is not JSON is left to the reader).
 */
function firstPolledObject(lines: string[], complete: boolean): Record<string, unknown> | null {
  const whole = complete ? lines : lines.slice(0, -1);
  for (const line of whole) {
    const v = line.trim() === "" ? PARSE_FAILED : parseJsonText(line.trim());
    if (!Array.isArray(v)) continue;
    const first = v.find(isObject);
    if (first) return first;
  }
  return null;
}

/** A JSONL line's record type, or null when it is not a known per-line record. */
function lineRecordKind(v: Record<string, unknown>): Detected | null {
  if (v.schema === DYNAMO_TRACE_SCHEMA) return { kind: "dynamo-request-trace", format: "jsonl" };
  if (Array.isArray(v.resourceSpans)) return { kind: "dynamo-otlp-spans", format: "jsonl" };
  if (isObject(v.metadata) && isObject(v.metrics)) return { kind: "aiperf-records", format: "jsonl" };
  // aiperf's raw export: TensorRT-LLM's metrics, when the server returned them, are in its responses.
  if (isAiperfRawRecord(v)) return { kind: "trtllm-perf-metrics", format: "aiperf-raw" };
  const bench = benchLineKind(v);
  if (bench) return bench;
  if ("telemetry_data" in v && ("gpu_uuid" in v || "gpu_index" in v))
    return { kind: "aiperf-gpu-telemetry", format: "jsonl" };
  if ("endpoint_url" in v && isObject(v.metrics) && "timestamp_ns" in v)
    return { kind: "aiperf-server-metrics", format: "jsonl" };
  if (isTrtllmRecord(v)) return { kind: "trtllm-perf-metrics", format: "jsonl" };
  const side = sideFileFormatOf(v);
  if (side) return { kind: "trtllm-side-file", format: side };
  return null;
}

function isTrtllmRecord(v: Record<string, unknown>): boolean {
  const r = isObject(v.record) ? v.record : v;
  return (
    isObject(r.perf_metrics) ||
    // A bare `RequestPerfMetrics` object, as the LLM API hands out per request.
    isObject(r.timing_metrics) ||
    "ctx_perf_metrics" in r ||
    "gen_perf_metrics" in r ||
    (isObject(r.phases) && "request_id" in r)
  );
}

/** A Dynamo request-trace row whose first line outgrows the head (many replay hashes) */
const DYNAMO_TRACE_MARK = /"schema"\s*:\s*"dynamo\.request\.trace\.v1"/;

/** An OTLP trace export (ExportTraceServiceRequest) whose first line outgrows the head */
const OTLP_SPANS_MARK = /^\{\s*"resourceSpans"\s*:\s*\[/;

/** A line that opens with aiperf's record metadata. */
const AIPERF_RAW_MARK = /^\{\s*"metadata"\s*:\s*\{/;

/** Keys only a per-request aiperf record's metadata has (a summary's metadata has none of them). */
const RECORD_METADATA = /"(x_request_id|request_start_ns|request_end_ns|record_processor_id)"\s*:/;

function sniffRecordKeys(line: string): Detected | null {
  const start = line.slice(0, 4096);
  if (DYNAMO_TRACE_MARK.test(start)) return { kind: "dynamo-request-trace", format: "jsonl" };
  if (OTLP_SPANS_MARK.test(start)) return { kind: "dynamo-otlp-spans", format: "jsonl" };
  if (
    /"(ctx_perf_metrics|gen_perf_metrics|perf_metrics|timing_metrics)"\s*:/.test(start) ||
    sniffPhaseKeyed(start)
  )
    return { kind: "trtllm-perf-metrics", format: "jsonl" };
  const side = sniffSideFileKeys(start);
  if (side) return { kind: "trtllm-side-file", format: side };
  // aiperf's raw record: metadata, then start_perf_ns, then the payload and responses (which may
  // outgrow the head); no metrics.
  if (AIPERF_RAW_MARK.test(start) && /"start_perf_ns"\s*:/.test(line) && !/"metrics"\s*:/.test(line))
    return { kind: "trtllm-perf-metrics", format: "aiperf-raw" };
  if (/"metadata"\s*:/.test(start) && /"metrics"\s*:/.test(line))
    return { kind: "aiperf-records", format: "jsonl" };
  // A record whose metadata alone outgrows the head (a huge worker id): its metadata keys tell.
  if (/^\{\s*"metadata"\s*:\s*\{/.test(start) && RECORD_METADATA.test(line))
    return { kind: "aiperf-records", format: "jsonl" };
  if (/"endpoint_url"\s*:/.test(start) && /"timestamp_ns"\s*:/.test(start))
    return { kind: "aiperf-server-metrics", format: "jsonl" };
  return null;
}

/** aiperf summary metric tags; minimal summaries carry them as bare numbers, full ones as {unit, avg, …}. */
const SUMMARY_TAGS = [
  "request_throughput",
  // aiperf 0.1.x's short tag
  "ttft",
  "request_latency",
  "time_to_first_token",
  "request_count",
  "benchmark_duration",
  "output_token_throughput",
  "error_request_count",
];

const ENGINE_CONFIG_KEYS = [
  "return_perf_metrics",
  "enable_iter_perf_stats",
  "perf_metrics_output_dir",
  "kv_cache_config",
  "publish_events_and_metrics",
  "publish_kv_events",
  "disaggregated_params",
  "cache_transceiver_config",
  "enable_chunked_prefill",
  "tensor_parallel_size",
  "moe_expert_parallel_size",
  "cuda_graph_config",
  "max_num_tokens",
  "max_batch_size",
  "enable_attention_dp",
  "speculative_config",
];

/**
 * Whether `head` is the start of one JSON document that does not fit in it (not JSON lines whose
 * first line is whole): its kind is then best told from the whole document's outline
 * (`detectDocumentKind` of `jsonSkeleton`), since its telling keys may come after the head.
 */
export function isPartialJsonDocument(raw: Buffer, complete: boolean): boolean {
  if (complete) return false;
  return partialDocument(headAsUtf8(raw).toString("utf8"), complete);
}

function partialDocument(decoded: string, complete: boolean): boolean {
  if (complete) return false;
  const text = decoded.replace(/^\uFEFF/, "").trimStart();
  if (text[0] !== "{" && text[0] !== "[") return false;
  if (/^\[\d{4}-\d\d-\d\d|^\[\d\d:\d\d/.test(text)) return false;
  // Only the first line matters: the head is not split into all of its lines for it.
  const end = text.search(LINE_END);
  return end < 0 || parseJsonText(text.slice(0, end).trim()) === PARSE_FAILED;
}

/** The kind of a whole JSON document (or its outline), by the rules small files are told by. */
export function detectDocumentKind(doc: unknown): Detected {
  try {
    return documentKind(doc);
  } catch {
    return { kind: "unknown", format: "json" };
  }
}

function documentKind(doc: unknown): Detected {
  if (Array.isArray(doc)) {
    const firstObj = doc.find(isObject);
    const sweep = firstObj ? benchDocumentKind(firstObj) : null;
    if (sweep?.kind === "vllm-bench") return sweep;
    const results = benchArrayKind(doc);
    if (results) return results;
    if (firstObj && isTrtllmRecord(firstObj)) return { kind: "trtllm-perf-metrics", format: "json-array" };
    const side = sideFileFormatOf(firstObj);
    return side ? { kind: "trtllm-side-file", format: side } : { kind: "unknown", format: "json" };
  }
  if (!isObject(doc)) return { kind: "unknown", format: "json" };
  if (Array.isArray(doc.resourceSpans)) return { kind: "dynamo-otlp-spans", format: "json" };
  // Before the aiperf summary rule: a tool's result has bare-number `request_throughput` too.
  const bench = benchDocumentKind(doc);
  if (bench) return bench;
  if (Array.isArray(doc.timeslices)) return { kind: "aiperf-summary", format: "timeslices-json" };
  if (isObject(doc.metadata) && typeof doc.metadata.aggregation_type === "string")
    return { kind: "aiperf-summary", format: "aggregate-json" };
  if (doc.aggregation_type === "sweep") return { kind: "aiperf-summary", format: "aggregate-json" };
  if (isObject(doc.metrics) && (isObject(doc.summary) || hasSeries(doc.metrics)))
    return { kind: "aiperf-server-metrics", format: "json" };
  if (Array.isArray(doc.data) && doc.data.some((d) => isObject(d) && Array.isArray(d.payloads)))
    return { kind: "aiperf-inputs", format: "json" };
  const aiperfSide = aiperfSideDocument(doc);
  if (aiperfSide) return { kind: "aiperf-log", format: aiperfSide };
  if (isSummaryBlocks(doc) || (isObject(doc.records) && isSummaryBlocks(doc.records)))
    return { kind: "aiperf-summary", format: "json" };
  if (isTrtllmRecord(doc)) return { kind: "trtllm-perf-metrics", format: "json" };
  const side = sideFileFormatOf(doc);
  if (side) return { kind: "trtllm-side-file", format: side };
  if (ENGINE_CONFIG_KEYS.some((k) => k in doc)) return { kind: "engine-config", format: "json" };
  if (isRunMetadata(doc)) return { kind: "engine-config", format: "json" };
  return { kind: "unknown", format: "json" };
}

/**
 * aiperf's other JSON artifacts (ai-dynamo/aiperf docs/reference/json-export-schema.md):
 * `outputs.json` (schema 1.1: `data[]` profiling responses, `warmup[]`), a named phase's export
 * wrapped as `{"phase": {…}, "data": {…}}`, and `phase_manifest.json`, which lists them.
 */
function aiperfSideDocument(
  doc: Record<string, unknown>,
): "outputs" | "phase-export" | "phase-manifest" | null {
  if (
    Array.isArray(doc.data) &&
    (Array.isArray(doc.warmup) ||
      doc.data.some((d) => isObject(d) && ("response_text" in d || "x_request_id" in d)))
  )
    return "outputs";
  const data = isObject(doc.data) ? doc.data : null;
  if (
    isObject(doc.phase) &&
    data &&
    (isSummaryBlocks(data) || isObject(data.metrics) || isObject(data.endpoints))
  )
    return "phase-export";
  if ("phases" in doc && JSON.stringify(doc.phases ?? null).includes("profile_export_aiperf"))
    return "phase-manifest";
  return null;
}

/** Metric blocks by tag; aiperf 0.1.x nested them under a top-level `records` map. */
function isSummaryBlocks(doc: Record<string, unknown>): boolean {
  return SUMMARY_TAGS.some(
    (t) => (isObject(doc[t]) && "unit" in (doc[t] as object)) || typeof doc[t] === "number",
  );
}

function hasSeries(metrics: Record<string, unknown>): boolean {
  for (const m of Object.values(metrics)) return isObject(m) && Array.isArray(m.series);
  return false;
}

/** For documents larger than the head: the same rules on key names seen in the first megabyte. */
function sniffDocument(text: string): Detected {
  const has = (key: string) => new RegExp(`"${key}"\\s*:`).test(text);
  if (text[0] === "[") {
    const results = sniffBenchDocument(text);
    if (results?.kind === "inferencex-result") return results;
    if (
      ["perf_metrics", "ctx_perf_metrics", "gen_perf_metrics", "timing_metrics"].some(has) ||
      sniffPhaseKeyed(text)
    )
      return { kind: "trtllm-perf-metrics", format: "json-array" };
    const side = sniffSideFileKeys(text);
    return side ? { kind: "trtllm-side-file", format: side } : { kind: "unknown", format: "json" };
  }
  const bench = sniffBenchDocument(text);
  if (bench) return bench;
  if (/^\{\s*"resourceSpans"\s*:/.test(text)) return { kind: "dynamo-otlp-spans", format: "json" };
  // Server-metrics series carry their own nested "timeslices": test for them first.
  if (has("endpoints_configured") || (has("metrics") && has("series") && has("endpoint_url")))
    return { kind: "aiperf-server-metrics", format: "json" };
  if (has("timeslices")) return { kind: "aiperf-summary", format: "timeslices-json" };
  if (has("aggregation_type")) return { kind: "aiperf-summary", format: "aggregate-json" };
  if (has("payloads") && has("data")) return { kind: "aiperf-inputs", format: "json" };
  if (has("data") && has("response_text") && has("x_request_id"))
    return { kind: "aiperf-log", format: "outputs" };
  if (SUMMARY_TAGS.some(has) && has("unit")) return { kind: "aiperf-summary", format: "json" };
  if (has("timing_metrics")) return { kind: "trtllm-perf-metrics", format: "json" };
  if (ENGINE_CONFIG_KEYS.some(has)) return { kind: "engine-config", format: "json" };
  return { kind: "unknown", format: "json" };
}

function detectText(text: string): Detected {
  const lines = text.split(LINE_END, 2000);
  const firstData = lines.find((l) => l.trim() !== "" && !l.startsWith("#")) ?? "";
  // A capture of HTTP responses (curl -i, -N): TensorRT-LLM's metrics headers or SSE event.
  if (looksLikeHttpCapture(lines.find((l) => l.trim() !== "") ?? ""))
    return { kind: "trtllm-perf-metrics", format: "http-capture" };

  if (/^#\s*AIPerf Server Metrics Export/i.test(lines[0]) || /^Endpoint,Type,Metric,Unit\b/.test(firstData))
    return { kind: "aiperf-server-metrics", format: "csv" };
  if (isTimeslicesHeader(firstData)) return { kind: "aiperf-summary", format: "timeslices-csv" };
  if (/^Metric,(avg|Value)\b/.test(firstData)) return { kind: "aiperf-summary", format: "csv" };
  if (isInferencexSweepCsvHeader(firstData)) return { kind: "inferencex-result", format: "csv" };

  if (looksLikePrometheus(lines)) return { kind: "aiperf-server-metrics", format: "prometheus" };
  const aiperfText = aiperfTextFormat(lines);
  if (aiperfText) return { kind: "aiperf-log", format: aiperfText };
  // A benchmark's printed summary ("Serving Benchmark Result", GuideLLM's tables), before the
  // log rules: vLLM's console holds log lines of its own.
  if (benchConsoleTool(text)) return { kind: "bench-console", format: "text" };
  // A GuideLLM report saved as YAML (`benchmarks.yaml`) has `backend:` keys too: asked first.
  // PyYAML sorts keys, so a benchmark's `type_` may come after its requests, past the head;
  // its other objects' `type_: generative_…` (request stats, worker, loader) come first.
  const benchmarksKey = /^benchmarks:/m.test(text);
  if (benchmarksKey && /type_:\s*generative_[a-z_]+/.test(text))
    return { kind: "guidellm-report", format: "yaml" };
  // No engine's config has a top-level `benchmarks` list.
  if (!benchmarksKey && looksLikeEngineYaml(lines)) return { kind: "engine-config", format: "yaml" };
  if (looksLikeCollectorEnvFile(lines)) return { kind: "engine-config", format: "text" };
  if (looksLikeRouterLog(text)) return { kind: "router-log", format: "text" };
  if (looksLikeServerLog(text)) return { kind: "server-log", format: "text" };
  return UNKNOWN_TEXT;
}

/**
 * aiperf's tidy timeslices CSV: `Timeslice,Metric,Unit,Stat,Value`; newer builds add columns
 * such as `Start_NS,End_NS` after the index, so the header is read by its column names.
 */
function isTimeslicesHeader(line: string): boolean {
  const cols = line.split(",").map((c) => c.trim());
  return cols[0] === "Timeslice" && ["Metric", "Stat", "Value"].every((c) => cols.includes(c));
}

/** aiperf's own log line: `2026-06-03 18:03:59.532 - PhaseRunner - NOTICE - …` */
const AIPERF_LOG_LINE =
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ - \S+ - (TRACE|DEBUG|INFO|NOTICE|SUCCESS|WARNING|ERROR|CRITICAL) - /;

/**
 * aiperf's text artifacts: its log (`aiperf.log`, the warm-up and profiling phases' outcome),
 * the command it ran (`benchmark_command.txt`) and its workload distribution summary.
 */
function aiperfTextFormat(lines: string[]): "text" | "command" | "workload" | null {
  const content = lines.filter((l) => l.trim() !== "");
  if (content.length === 0) return null;
  // Its lines may be followed by indented tables (lane dumps): the first line and the names decide.
  if (
    AIPERF_LOG_LINE.test(content[0]) &&
    content.some((l) => AIPERF_LOG_LINE.test(l) && /\b(aiperf|AIPerf|PhaseRunner|records_manager)\b/.test(l))
  )
    return "text";
  if (content.length <= 3 && /^\s*aiperf\s+profile\s/.test(content[0])) return "command";
  if (content.some((l) => /^BENCHMARK WORKLOAD DISTRIBUTION ANALYSIS\s*$/.test(l.trim()))) return "workload";
  return null;
}

const PROM_SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})?\s+[-+]?(\d|\.\d|NaN|Inf|\+Inf)/;

function looksLikePrometheus(lines: string[]): boolean {
  let typed = 0;
  let samples = 0;
  let other = 0;
  for (const l of lines) {
    if (l.trim() === "") continue;
    if (/^# (HELP|TYPE) [a-zA-Z_:]/.test(l)) typed++;
    else if (PROM_SAMPLE.test(l)) samples++;
    else if (!l.startsWith("#")) other++;
  }
  return samples > 0 && (typed > 0 || samples >= 3) && other <= (samples + typed) * 0.05;
}

function looksLikeEngineYaml(lines: string[]): boolean {
  const content = lines.filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  if (content.length === 0) return false;
  const yamlish = content.filter(
    (l) => /^\s*(-\s+)?[A-Za-z_][\w.-]*\s*:(\s|$)/.test(l) || /^\s*-\s+\S/.test(l),
  );
  if (yamlish.length / content.length < 0.9) return false;
  const keys = new Set(
    content.map((l) => l.match(/^\s*(?:-\s+)?([A-Za-z_][\w.-]*)\s*:/)?.[1]).filter(Boolean),
  );
  return (
    ENGINE_CONFIG_KEYS.some((k) => keys.has(k)) ||
    keys.has("backend") ||
    keys.has("free_gpu_memory_fraction") ||
    // A Dynamo TensorRT-LLM worker's launch arguments: its collector flags and engine-args file.
    content.some((l) => ENGINE_CLI_FLAG.test(l)) ||
    // … or its collector variables in an `env:` list.
    content.some((l) => COLLECTOR_ENV.test(l))
  );
}

/** Dynamo's TensorRT-LLM collector variables (lib/formats/engine-config.ts ENV_FLAGS). */
const COLLECTOR_ENV = /\bDYN_TRTLLM_PUBLISH_(EVENTS_AND_METRICS|KV_EVENTS)\b/;

/** A `.env` file (`KEY=value` lines, `export` allowed) that sets one of Dynamo's collector variables. */
function looksLikeCollectorEnvFile(lines: string[]): boolean {
  const content = lines.filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  if (content.length === 0 || !content.some((l) => COLLECTOR_ENV.test(l))) return false;
  return content.every((l) => /^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*=/.test(l));
}

const ENGINE_CLI_FLAG =
  /^\s*-\s+["']?--(publish-events-and-metrics|publish-kv-events|extra-engine-args|return-perf-metrics|enable-iter-perf-stats)\b/;

const LOG_MARKERS = /\b(vllm|sglang|tensorrt_llm|TRT-LLM|trtllm|dynamo|EngineCore|Scheduler|uvicorn)\b/i;
/** The KV pool lines the server-metrics analyzer reads (vLLM and SGLang). */
const KV_POOL_LINE = /GPU KV cache size:\s*[\d,]+\s*tokens|max_total_num_tokens=\d/;
const LOG_LINE =
  /^(\[?\d{4}-\d\d-\d\d|\[\d\d:\d\d|\(\w[\w-]*(?: pid=\d+)?\)|(INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\b|\[[A-Z][\w-]*\]|I\d{4} )/;

/**
 * A Dynamo frontend's log with routing decisions (lib/formats/router-log.ts). A log that also has
 * engine KV pool lines (everything in one file) stays a server log, whose pool sizes it gives.
 */
function looksLikeRouterLog(text: string): boolean {
  const routed = text.includes(ROUTING_MARK) || /Selected worker\b.*worker_type/.test(text);
  return routed && !KV_POOL_LINE.test(text);
}

/** Dynamo's JSONL logging (DYN_LOGGING_JSONL=1): every line has these keys. */
function isDynamoJsonLog(v: Record<string, unknown>): boolean {
  return ["time", "level", "target", "message"].every((k) => typeof v[k] === "string");
}

function looksLikeServerLog(text: string): boolean {
  if (KV_POOL_LINE.test(text)) return true;
  const lines = text.split(LINE_END, 2000).filter((l) => l.trim() !== "");
  if (lines.length === 0 || !LOG_MARKERS.test(text)) return false;
  const logLines = lines.filter((l) => LOG_LINE.test(l)).length;
  return logLines / lines.length >= 0.3;
}
