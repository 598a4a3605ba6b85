/**
 * One TensorRT-LLM request as the store keeps it: display times in ms from the run's earliest
 * arrival, null = not recorded. Built next to the run's statistics from the values they share.
 */
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import type { TrtllmKvBlocks, TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { TIME_KEYS, requestStart, spanMs, type BreakdownMode, type SegmentValue } from "./time-breakdown";
import type { RequestLatency } from "./trtllm-latency";
import type { JoinedRequest } from "./trtllm-join";
import { requestHitRate } from "./trtllm-kv";
import { roundMs } from "./trtllm-steps";

/**
 * Stored display times are rounded to 0.1 µs: timestamps carry µs precision at best, and 17
 * printed digits per number made rows several times larger. Statistics never read them.
 */
export const toMs = (s: number | null, origin: number) => (s === null ? null : roundMs((s - origin) * 1000));

/** What the summary computed for the request anyway (its statistics read the same values). */
export interface RequestRowParts {
  /** 0-based position in the run, the id the drill-down routes use */
  idx: number;
  mode: BreakdownMode;
  /** The run's t = 0 (s) */
  origin: number;
  /** Worker file names (without extension), by file index */
  workerNames: readonly string[];
  /** In canonical segment order */
  segments: SegmentValue[];
  kv: TrtllmKvBlocks | null;
  transferBytes: number | null;
  bandwidth: number | null;
  /** The record whose iterations the request spans */
  iters: TrtllmWorkerRecord | null;
  stepCount: number;
  chunkCount: number;
  /** Packed step entries (PackedStep in trtllm-steps.ts), capped per request */
  stepsJson: string;
  /** TTFT and E2E (requestLatency in trtllm-latency.ts) */
  latency: RequestLatency;
  /** Output tokens (outputTokensOf in trtllm-latency.ts); null: not known */
  outputTokens: number | null;
}

/**
 * The stored row; its columns are the trtllm_requests table's, then the request file's own
 * (output_tokens, one_response: what the TPOT of the latency charts reads), which the writer checks.
 */
export function requestRow(r: JoinedRequest, p: RequestRowParts) {
  const t = r.times;
  const start = requestStart(t);
  const times: Record<string, number | null> = {};
  for (const k of TIME_KEYS) times[k] = toMs(t[k], p.origin);
  const spec = r.gen?.speculative ?? r.ctx?.speculative ?? null;
  const kv = p.kv;
  return {
    idx: p.idx,
    mode: p.mode,
    request_id: r.requestId,
    ctx_request_id: r.ctxRequestId,
    disagg_request_id: r.disaggRequestId,
    ctx_server: r.ctxServer ? normalizeEndpoint(r.ctxServer) : null,
    gen_server: r.genServer ? normalizeEndpoint(r.genServer) : null,
    ctx_worker: r.ctxFile !== null ? p.workerNames[r.ctxFile] : null,
    gen_worker: r.genFile !== null ? p.workerNames[r.genFile] : null,
    arrival_ms: toMs(start, p.origin),
    ttft_ms: p.latency.ttftMs,
    e2e_ms: p.latency.e2eMs,
    times_json: JSON.stringify(times),
    segments_json: JSON.stringify(p.segments),
    kv_total_blocks: kv?.total ?? null,
    kv_new_blocks: kv?.newlyAllocated ?? null,
    kv_reused_blocks: kv?.reused ?? null,
    kv_missed_blocks: kv?.missed ?? null,
    kv_hit_rate: kv ? requestHitRate(kv) : null,
    kv_transfer_bytes: p.transferBytes,
    // Between the generation side's transfer stamps; else the duration a response sent alone.
    kv_transfer_ms:
      spanMs(t.genKvTransferStart, t.genKvTransferEnd) ??
      r.gen?.kvTransferSentMs ??
      r.ctx?.kvTransferSentMs ??
      null,
    kv_bandwidth_gbps: p.bandwidth,
    spec_accepted_tokens: spec?.acceptedDraftTokens ?? null,
    spec_draft_tokens: spec?.draftTokens ?? null,
    first_iter: p.iters?.firstIter ?? null,
    last_iter: p.iters?.lastIter ?? null,
    step_count: p.stepCount,
    chunk_count: p.chunkCount,
    steps_json: p.stepsJson,
    output_tokens: p.outputTokens,
    one_response: p.latency.oneResponse ? 1 : 0,
  };
}

export type TrtllmRequestRow = ReturnType<typeof requestRow>;
