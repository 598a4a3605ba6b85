/**
 * TensorRT-LLM per-request perf-metrics records (docs/formats.md §TensorRT-LLM perf metrics), normalised from
 * every on-disk generation: post-refactor JSONL worker and disagg-server records, the older
 * `/perf_metrics` array items (same per-item shape), lines wrapped as `{"record": …}` and the
 * phase-keyed record of one development build (lib/formats/trtllm-phases.ts).
 * Timestamps stay steady-clock seconds; a value that is absent, null, 0, negative or NaN is
 * "not recorded" and becomes null here, so no later step can mistake it for a time.
 */
import { parseJsonText } from "./json-text.mjs";
import { phasesToLegacy } from "./trtllm-phases";
import { StepList } from "./trtllm-step-list";

/** Steady-clock seconds, or null when not recorded. */
export type Seconds = number | null;

export interface TrtllmTiming {
  serverArrival: Seconds;
  arrival: Seconds;
  firstScheduled: Seconds;
  firstToken: Seconds;
  serverFirstToken: Seconds;
  lastToken: Seconds;
  kvTransferStart: Seconds;
  kvTransferEnd: Seconds;
  /** Bytes of KV cache transferred to this worker; null when no transfer was recorded. */
  kvCacheSizeBytes: number | null;
}

/** Every field of TrtllmTiming in record order: the worker's own times, then the KV transfer. */
export const TIMING_FIELDS = [
  "serverArrival",
  "arrival",
  "firstScheduled",
  "firstToken",
  "serverFirstToken",
  "lastToken",
  "kvTransferStart",
  "kvTransferEnd",
  "kvCacheSizeBytes",
] as const satisfies ReadonlyArray<keyof TrtllmTiming>;

export interface TrtllmKvBlocks {
  total: number;
  newlyAllocated: number;
  reused: number;
  missed: number;
}

export interface TrtllmSpeculative {
  acceptedDraftTokens: number;
  draftTokens: number;
}

export interface TrtllmWorkerRecord {
  type: "worker";
  requestId: string | null;
  ctxRequestId: string | null;
  disaggRequestId: string | null;
  status: string | null;
  timing: TrtllmTiming;
  firstIter: number | null;
  lastIter: number | null;
  kv: TrtllmKvBlocks | null;
  speculative: TrtllmSpeculative | null;
  steps: StepList;
  chunks: StepList;
  /** Precomputed clockOffsetSample (lib/metrics/trtllm-clock-offset.ts), so steps need not be read for it. */
  offsetSample?: number | null;
  /**
   * The KV-cache transfer's duration in ms where only a duration was sent (a response's
   * `{phase}_kv_transfer;dur`, kept as `timing_metrics.kv_transfer_sent_ms`, Runlens's own key):
   * it has no start, so it is never placed among the stamps. Absent or null otherwise.
   */
  kvTransferSentMs?: number | null;
}

export interface TrtllmDisaggRecord {
  type: "disagg";
  ctxServer: string | null;
  genServer: string | null;
  disaggArrival: Seconds;
  disaggCtxDispatch: Seconds;
  disaggFirstToken: Seconds;
  disaggRequestId: string | null;
  status: string | null;
  ctx: TrtllmWorkerRecord | null;
  gen: TrtllmWorkerRecord | null;
}

export type TrtllmRecord = TrtllmWorkerRecord | TrtllmDisaggRecord;

export type ParsedTrtllm = { record: TrtllmRecord } | { error: string };

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Numbers sometimes arrive as strings; anything non-finite is null. */
function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** A timestamp: 0 and negatives are the writers' "unset" encodings, never a real steady-clock time. */
export function seconds(v: unknown): Seconds {
  const n = num(v);
  return n !== null && n > 0 ? n : null;
}

/**
 * An id written as an integer of 16 digits or more (`request_id`, `ctx_request_id`,
 * `disagg_request_id`): TensorRT-LLM's disaggregated request ids are 64-bit snowflakes
 * (`tensorrt_llm/llmapi/disagg_utils.py` `get_global_disagg_request_id`: a 39-bit millisecond
 * stamp, node, process and a 10-bit counter, in [2^40, 2^63)), which its JSONL writer
 * (`tensorrt_llm/serve/perf_metrics.py`, `json.dumps`) writes as exact integers. A double holds
 * 53 bits, so JSON.parse rounds them: ids of one millisecond, a counter apart, became one.
 */
const BIG_ID = /"(request_id|ctx_request_id|disagg_request_id)"(\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

/**
 * The JSON text of a perf-metrics record (a line, an array element or a document) with its
 * long integer ids read as the strings of their digits, exactly; the rest as parseJsonText.
 */
export function parseTrtllmJsonText(text: string): unknown {
  return parseJsonText(/\d{16}/.test(text) ? text.replace(BIG_ID, '"$1"$2"$3"') : text);
}

/** Ids are kept as strings: request ids can be ints or strings and must compare equal across files. */
function id(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "string" && v !== "") return v;
  return null;
}

function count(v: unknown): number | null {
  const n = num(v);
  return n !== null && n >= 0 ? n : null;
}

function parseTiming(raw: unknown): TrtllmTiming {
  const t = isObject(raw) ? raw : {};
  const size = count(t.kv_cache_size);
  return {
    serverArrival: seconds(t.server_arrival_time),
    arrival: seconds(t.arrival_time),
    firstScheduled: seconds(t.first_scheduled_time),
    firstToken: seconds(t.first_token_time),
    serverFirstToken: seconds(t.server_first_token_time),
    lastToken: seconds(t.last_token_time),
    kvTransferStart: seconds(t.kv_cache_transfer_start),
    kvTransferEnd: seconds(t.kv_cache_transfer_end),
    kvCacheSizeBytes: size !== null && size > 0 ? size : null,
  };
}

function parseKv(raw: unknown): TrtllmKvBlocks | null {
  if (!isObject(raw)) return null;
  const reused = count(raw.num_reused_blocks);
  const missed = count(raw.num_missed_blocks);
  if (reused === null && missed === null) return null;
  return {
    total: count(raw.num_total_allocated_blocks) ?? 0,
    newlyAllocated: count(raw.num_new_allocated_blocks) ?? 0,
    reused: reused ?? 0,
    missed: missed ?? 0,
  };
}

function parseSpeculative(raw: unknown): TrtllmSpeculative | null {
  if (!isObject(raw)) return null;
  const draft = count(raw.total_draft_tokens);
  if (!draft) return null;
  return { acceptedDraftTokens: count(raw.total_accepted_draft_tokens) ?? 0, draftTokens: draft };
}

/**
 * Where a record's parsed steps go. `packed` is a scratch view, valid only during the call (no
 * array is allocated per record when the caller stores the values elsewhere, as the analyzer
 * does); the default copies it.
 */
export type KeepSteps = (packed: Float64Array, count: number) => StepList;

const copySteps: KeepSteps = (packed) => new StepList(packed.slice());

let scratch = new Float64Array(StepList.WIDTH * 1024);

function parseSteps(raw: unknown, keep: KeepSteps): StepList {
  if (!Array.isArray(raw)) return StepList.EMPTY;
  const w = StepList.WIDTH;
  if (raw.length * w > scratch.length) scratch = new Float64Array(raw.length * w);
  let n = 0;
  for (const s of raw) {
    if (!isObject(s)) continue;
    const o = n++ * w;
    scratch[o] = seconds(s.forward_start_time) ?? NaN;
    scratch[o + 1] = seconds(s.forward_end_time) ?? NaN;
    scratch[o + 2] = seconds(s.sample_start_time) ?? NaN;
    scratch[o + 3] = seconds(s.sample_end_time) ?? NaN;
    scratch[o + 4] = seconds(s.token_time) ?? NaN;
    scratch[o + 5] = num(s.gpu_forward_time) ?? NaN;
    scratch[o + 6] = num(s.gpu_sample_time) ?? NaN;
    scratch[o + 7] = num(s.iter) ?? NaN;
    // Durations without their stamps: only in records rebuilt from response headers.
    scratch[o + 8] = num(s.forward_sent_ms) ?? NaN;
    scratch[o + 9] = num(s.sample_sent_ms) ?? NaN;
  }
  return n === 0 ? StepList.EMPTY : keep(scratch.subarray(0, n * w), n);
}

/**
 * A worker's `{request_id, perf_metrics, ctx_request_id?, time_breakdown_metrics?}`. Legacy builds
 * put the step arrays inside `perf_metrics` or directly in it; the refactored tool checks all three.
 */
export function parseWorker(raw: Obj, keep: KeepSteps = copySteps): TrtllmWorkerRecord {
  const pm = isObject(raw.perf_metrics) ? raw.perf_metrics : {};
  const tbm = isObject(raw.time_breakdown_metrics)
    ? raw.time_breakdown_metrics
    : isObject(pm.time_breakdown_metrics)
      ? pm.time_breakdown_metrics
      : pm;
  return {
    type: "worker",
    requestId: id(raw.request_id),
    ctxRequestId: id(raw.ctx_request_id),
    disaggRequestId: id(raw.disagg_request_id),
    status: typeof raw.status === "string" ? raw.status : null,
    timing: parseTiming(pm.timing_metrics),
    firstIter: num(pm.first_iter),
    lastIter: num(pm.last_iter),
    kv: parseKv(pm.kv_cache_metrics),
    speculative: parseSpeculative(pm.speculative_decoding),
    steps: parseSteps(tbm.step_metrics, keep),
    chunks: parseSteps(tbm.ctx_chunk_metrics, keep),
    ...kvTransferSent(pm.timing_metrics),
  };
}

/** `kv_transfer_sent_ms` when above 0 (a transfer of 0 ms is an unset pair of stamps), else nothing. */
function kvTransferSent(raw: unknown): { kvTransferSentMs?: number } {
  const ms = isObject(raw) ? num(raw.kv_transfer_sent_ms) : null;
  return ms !== null && ms > 0 ? { kvTransferSentMs: ms } : {};
}

function parseDisagg(raw: Obj, keep: KeepSteps): TrtllmDisaggRecord {
  const ctx = isObject(raw.ctx_perf_metrics) ? parseWorker(raw.ctx_perf_metrics, keep) : null;
  const gen = isObject(raw.gen_perf_metrics) ? parseWorker(raw.gen_perf_metrics, keep) : null;
  return {
    type: "disagg",
    ctxServer: typeof raw.ctx_server === "string" ? raw.ctx_server : null,
    genServer: typeof raw.gen_server === "string" ? raw.gen_server : null,
    disaggArrival: seconds(raw.disagg_server_arrival_time),
    disaggCtxDispatch: seconds(raw.disagg_ctx_dispatch_time),
    // The PR #8005 text spells it `_ts`; the code key is `_time`.
    disaggFirstToken: seconds(raw.disagg_server_first_token_time ?? raw.disagg_server_first_token_ts),
    disaggRequestId: id(raw.disagg_request_id),
    status: typeof raw.status === "string" ? raw.status : null,
    ctx,
    gen,
  };
}

/** Normalises one parsed JSON value (a JSONL line or an array element) into a record. */
export function parseTrtllmRecord(value: unknown, keep: KeepSteps = copySteps): ParsedTrtllm {
  if (!isObject(value)) return { error: "not a JSON object" };
  let raw = isObject(value.record) ? value.record : value;
  if (isObject(raw.phases) && !isObject(raw.perf_metrics)) {
    const turned = phasesToLegacy(raw);
    if ("error" in turned) return turned;
    raw = turned.legacy;
  }
  if ("ctx_perf_metrics" in raw || "gen_perf_metrics" in raw) {
    const rec = parseDisagg(raw, keep);
    if (!rec.ctx && !rec.gen) return { error: "disaggregated record without ctx or gen metrics" };
    return { record: rec };
  }
  if (isObject(raw.perf_metrics)) return { record: parseWorker(raw, keep) };
  // A bare RequestPerfMetrics object (LLM API / Dynamo docs): the perf_metrics part alone.
  if (isObject(raw.timing_metrics)) return { record: parseWorker({ perf_metrics: raw }, keep) };
  return { error: "not a TensorRT-LLM perf-metrics record" };
}
