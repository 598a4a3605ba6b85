/** The TensorRT-LLM drill-down answers: stored request rows with their segments named. */
import { setImmediate as nextTurn } from "node:timers/promises";
import { MAX_SAMPLE, type RequestDetail, type RequestSample, type SampleSort } from "@/lib/api/trtllm-charts";
import { segmentStart, segmentsFor, type SegmentValue } from "@/lib/metrics/time-breakdown";
import { unpackSteps, type PackedStep } from "@/lib/metrics/trtllm-steps";
import type { Db } from "@/lib/store/db";
import { requestRow, sampleRequestRows } from "@/lib/store/trtllm-requests";

/** Sampled requests shaped (their segments' JSON parsed) between two turns of the event loop. */
const SHAPE_PAGE = 500;

/**
 * An evenly strided sample of at most `limit` requests (every k-th by arrival order), so the
 * sample keeps the run's shape; then sorted, missing values last whatever the order. Read and
 * shaped in pages, with a turn of the event loop between them.
 */
export async function sampleRequests(
  db: Db,
  runId: string,
  sort: SampleSort,
  order: "asc" | "desc",
  limit = MAX_SAMPLE,
): Promise<RequestSample | null> {
  const sample = await sampleRequestRows(db, runId, sort, order, Math.min(limit, MAX_SAMPLE));
  if (!sample) return null;
  const { total: n, rows } = sample;
  const mode = rows[0].mode;
  const requests: RequestSample["requests"] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % SHAPE_PAGE === 0) await nextTurn();
    const r = rows[i];
    requests.push({
      idx: r.idx,
      requestId: r.request_id,
      disaggRequestId: r.disagg_request_id,
      arrivalMs: r.arrival_ms,
      ttftMs: r.ttft_ms,
      e2eMs: r.e2e_ms,
      segments: JSON.parse(r.segments_json) as SegmentValue[],
    });
  }
  return { mode, total: n, segmentNames: segmentsFor(mode).map((s) => s.name), requests };
}

export async function requestDetail(db: Db, runId: string, idx: number): Promise<RequestDetail | null> {
  const r = await requestRow(db, runId, idx);
  if (!r) return null;
  const times = JSON.parse(r.times_json) as Record<string, number | null>;
  const values = JSON.parse(r.segments_json) as SegmentValue[];
  return {
    idx: r.idx,
    mode: r.mode,
    requestId: r.request_id,
    ctxRequestId: r.ctx_request_id,
    disaggRequestId: r.disagg_request_id,
    ctxServer: r.ctx_server,
    genServer: r.gen_server,
    ctxWorker: r.ctx_worker,
    genWorker: r.gen_worker,
    arrivalMs: r.arrival_ms,
    ttftMs: r.ttft_ms,
    e2eMs: r.e2e_ms,
    times,
    segments: segmentsFor(r.mode).map((def, i) => ({
      name: def.name,
      label: def.label,
      startMs: segmentStart(def, times),
      value: values[i] ?? null,
    })),
    kv: {
      totalBlocks: r.kv_total_blocks,
      newBlocks: r.kv_new_blocks,
      reusedBlocks: r.kv_reused_blocks,
      missedBlocks: r.kv_missed_blocks,
      hitRate: r.kv_hit_rate,
      transferBytes: r.kv_transfer_bytes,
      transferMs: r.kv_transfer_ms,
      bandwidthGBps: r.kv_bandwidth_gbps,
    },
    speculative:
      r.spec_draft_tokens !== null
        ? { acceptedDraftTokens: r.spec_accepted_tokens ?? 0, draftTokens: r.spec_draft_tokens }
        : null,
    steps: unpackSteps(JSON.parse(r.steps_json) as PackedStep[]),
    stepCount: r.step_count + r.chunk_count,
  };
}
