/**
 * TensorRT-LLM's per-request metrics as its serving layer hands them to the client
 * (docs/formats.md §TensorRT-LLM metrics in responses): response headers (`Server-Timing`,
 * `X-TRTLLM-Start-End-Time`, `X-TRTLLM-Step-Metrics`, `X-TRTLLM-Ctx-Chunk-Metrics`) of a
 * non-streamed response, or the same fields as the JSON of one `event: trtllm.perf_metrics` SSE
 * message after `data: [DONE]`. Written by `tensorrt_llm/serve/perf_metrics.py`
 * `build_metrics_headers()` / `build_metrics_sse_event()` (PR #16668):
 *
 * - `Server-Timing`: `{phase}_{queue|ttft|e2e|kv_transfer};dur=<ms>`, durations in milliseconds
 *   from the phase's `arrival_time` to `first_scheduled_time`, `first_token_time`,
 *   `last_token_time`, and from `kv_cache_transfer_start` to `_end`; the `disagg` phase writes
 *   `disagg_queue` (server arrival → ctx dispatch) and `disagg_ttft` (server arrival → first token);
 * - `X-TRTLLM-Start-End-Time`: `{phase}-start;ts=<s>` (`arrival_time`) and `{phase}-end;ts=<s>`
 *   (`last_token_time`), steady-clock seconds;
 * - `X-TRTLLM-Step-Metrics`: `{phase}-step-{iter}-{forward|sample|gpu-forward|gpu-sample};dur=<ms>`,
 *   `X-TRTLLM-Ctx-Chunk-Metrics` the same with `ctx-chunk-{index}`: forward and sample are the
 *   differences of the step's start and end stamps, the GPU times its own milliseconds.
 *
 * The phase is `server` (one serving process), or `disagg`, `ctx`, `gen` (a disaggregation
 * server's response, its workers' fields renamed by `build_metrics_record_from_headers`).
 * Durations are all the steps carry: their start stamps are not sent.
 */

export const SERVER_TIMING_HEADER = "Server-Timing";
export const START_END_TIME_HEADER = "X-TRTLLM-Start-End-Time";
export const STEP_METRICS_HEADER = "X-TRTLLM-Step-Metrics";
export const CTX_CHUNK_METRICS_HEADER = "X-TRTLLM-Ctx-Chunk-Metrics";
export const METRICS_HEADERS = [
  SERVER_TIMING_HEADER,
  START_END_TIME_HEADER,
  STEP_METRICS_HEADER,
  CTX_CHUNK_METRICS_HEADER,
] as const;
export const SSE_METRICS_EVENT = "trtllm.perf_metrics";

/** One generation step or context chunk: durations in milliseconds, null when not sent. */
export interface StepDurations {
  /** The step's `iter` (a context chunk's index). */
  index: number;
  forwardMs: number | null;
  sampleMs: number | null;
  gpuForwardMs: number | null;
  gpuSampleMs: number | null;
}

export interface PhaseMetrics {
  queueMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  kvTransferMs: number | null;
  /** `{phase}-start;ts`: the phase's arrival, steady-clock seconds. */
  startS: number | null;
  /** `{phase}-end;ts`: its last token, steady-clock seconds. */
  endS: number | null;
  steps: StepDurations[];
  chunks: StepDurations[];
}

export interface ParsedMetricsFields {
  /** By phase name, in the order first seen. */
  phases: Map<string, PhaseMetrics>;
  /** Items of the four fields that are not TensorRT-LLM's form or whose value is not a number ≥ 0. */
  malformed: string[];
  /** `Server-Timing` items of another producer (a proxy's `cdn-cache;desc=HIT`): not read. */
  foreign: string[];
}

const emptyPhase = (): PhaseMetrics => ({
  queueMs: null,
  ttftMs: null,
  e2eMs: null,
  kvTransferMs: null,
  startS: null,
  endS: null,
  steps: [],
  chunks: [],
});

/** `name;k=v;k2=v2` → its name and parameters (Server-Timing's syntax, RFC 8941 parameters). */
function splitItem(item: string): { name: string; params: Map<string, string> } {
  const [name, ...rest] = item.split(";");
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf("=");
    if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
  }
  return { name: name.trim(), params };
}

/** A finite number ≥ 0, else null (the producer writes none other). */
function value(text: string | undefined): number | null {
  if (text === undefined || !/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

const TIMING = /^([a-z]+)_(queue|ttft|e2e|kv_transfer)$/;
const START_END = /^([a-z]+)-(start|end)$/;
const STEP = /^([a-z]+)-(step|ctx-chunk)-(\d+)-(forward|sample|gpu-forward|gpu-sample)$/;

const STEP_FIELD = {
  forward: "forwardMs",
  sample: "sampleMs",
  "gpu-forward": "gpuForwardMs",
  "gpu-sample": "gpuSampleMs",
} as const;

const TIMING_FIELD = { queue: "queueMs", ttft: "ttftMs", e2e: "e2eMs", kv_transfer: "kvTransferMs" } as const;

function stepOf(list: StepDurations[], index: number): StepDurations {
  let s = list.find((x) => x.index === index);
  if (!s) {
    s = { index, forwardMs: null, sampleMs: null, gpuForwardMs: null, gpuSampleMs: null };
    list.push(s);
  }
  return s;
}

/**
 * Reads the four fields (header name → value; names compared without case, as HTTP does).
 * Nothing is dropped silently: an item that is not TensorRT-LLM's form in one of its own
 * headers, or whose number is not one, is listed in `malformed`; another producer's
 * `Server-Timing` item in `foreign`.
 */
export function parseMetricsFields(fields: Readonly<Record<string, unknown>>): ParsedMetricsFields {
  const byLower = new Map<string, unknown>();
  for (const [k, v] of Object.entries(fields)) byLower.set(k.toLowerCase(), v);
  const out: ParsedMetricsFields = { phases: new Map(), malformed: [], foreign: [] };
  const phase = (name: string) => {
    let p = out.phases.get(name);
    if (!p) out.phases.set(name, (p = emptyPhase()));
    return p;
  };
  for (const header of METRICS_HEADERS) {
    const raw = byLower.get(header.toLowerCase());
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== "string") {
      out.malformed.push(`${header}: not a string`);
      continue;
    }
    for (const item of raw.split(",")) {
      if (item.trim() === "") continue;
      const { name, params } = splitItem(item);
      const bad = () => out.malformed.push(`${header}: ${item.trim()}`);
      if (header === SERVER_TIMING_HEADER) {
        const m = TIMING.exec(name);
        if (!m) {
          out.foreign.push(item.trim());
          continue;
        }
        const dur = value(params.get("dur"));
        if (dur === null) bad();
        else phase(m[1])[TIMING_FIELD[m[2] as keyof typeof TIMING_FIELD]] = dur;
      } else if (header === START_END_TIME_HEADER) {
        const m = START_END.exec(name);
        const ts = value(params.get("ts"));
        if (!m || ts === null) bad();
        else phase(m[1])[m[2] === "start" ? "startS" : "endS"] = ts;
      } else {
        const m = STEP.exec(name);
        const dur = value(params.get("dur"));
        const kindOk = m && (m[2] === "step") === (header === STEP_METRICS_HEADER);
        if (!m || !kindOk || dur === null) bad();
        else {
          const p = phase(m[1]);
          const s = stepOf(m[2] === "step" ? p.steps : p.chunks, Number(m[3]));
          s[STEP_FIELD[m[4] as keyof typeof STEP_FIELD]] = dur;
        }
      }
    }
  }
  return out;
}

/**
 * The JSON of a `trtllm.perf_metrics` SSE message's data (`build_metrics_sse_event`: one object
 * of header name → value), or an error when it is not that.
 */
export function parseMetricsEventData(data: string): { fields: Record<string, unknown> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return { error: `${SSE_METRICS_EVENT} event data is not JSON` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { error: `${SSE_METRICS_EVENT} event data is not a JSON object` };
  return { fields: v as Record<string, unknown> };
}

type Obj = Record<string, unknown>;

const plus = (s: number | null, ms: number | null) => (s === null || ms === null ? null : s + ms / 1000);

/**
 * A worker's timing and steps in the released JSONL record's shape, rebuilt as TensorRT-LLM's own
 * `build_metrics_record_from_headers` does: arrival = `start`, first scheduled / first token =
 * arrival + queue / TTFT, last token = `end` (else arrival + E2E). The KV transfer is a duration
 * without a start: not placed, kept as `kv_transfer_sent_ms` (Runlens's own key) when above 0 (a
 * phase that moved no KV cache sends 0 from its unset stamps, or nothing). Steps keep `iter` and the GPU times (milliseconds, no clock); their
 * forward and sample stamps are not sent, so not recorded, and their durations are kept as sent
 * (`forward_sent_ms`, `sample_sent_ms`: Runlens's own keys, no producer writes them).
 */
function workerJson(p: PhaseMetrics, requestId: string | null): Obj {
  const arrival = p.startS;
  const steps = (list: StepDurations[], withIter: boolean) =>
    list.map((s) => ({
      ...(withIter ? { iter: s.index } : {}),
      gpu_forward_time: s.gpuForwardMs,
      gpu_sample_time: s.gpuSampleMs,
      forward_sent_ms: s.forwardMs,
      sample_sent_ms: s.sampleMs,
    }));
  return {
    request_id: requestId,
    status: "complete",
    perf_metrics: {
      timing_metrics: {
        arrival_time: arrival,
        first_scheduled_time: plus(arrival, p.queueMs),
        first_token_time: plus(arrival, p.ttftMs),
        last_token_time: p.endS ?? plus(arrival, p.e2eMs),
        ...(p.kvTransferMs !== null && p.kvTransferMs > 0 ? { kv_transfer_sent_ms: p.kvTransferMs } : {}),
      },
    },
    time_breakdown_metrics: { step_metrics: steps(p.steps, true), ctx_chunk_metrics: steps(p.chunks, false) },
  };
}

/**
 * The parsed fields as a perf-metrics record of the released JSONL shape (lib/formats/trtllm-record.ts
 * reads it): a worker record for a `server` phase; a disagg-server record when a `disagg` phase is
 * there (its arrival from `disagg-start`, ctx dispatch and first token from its queue and TTFT),
 * with `ctx` and `gen` as its workers. Null when no phase was read.
 */
export function metricsRecordJson(parsed: ParsedMetricsFields, requestId: string | null): Obj | null {
  const { phases } = parsed;
  const disagg = phases.get("disagg");
  if (disagg) {
    const ctx = phases.get("ctx");
    const gen = phases.get("gen");
    return {
      disagg_request_id: requestId,
      status: "complete",
      disagg_server_arrival_time: disagg.startS,
      disagg_ctx_dispatch_time: plus(disagg.startS, disagg.queueMs),
      disagg_server_first_token_time: plus(disagg.startS, disagg.ttftMs),
      ctx_perf_metrics: ctx ? workerJson(ctx, null) : null,
      gen_perf_metrics: gen ? workerJson(gen, null) : null,
    };
  }
  const server = phases.get("server") ?? phases.values().next().value;
  return server ? workerJson(server, requestId) : null;
}
