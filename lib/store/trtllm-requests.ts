/** Reads of the TensorRT-LLM per-request rows for the drill-down routes. */
import { segmentsFor, type SegmentValue } from "@/lib/metrics/time-breakdown";
import { MAX_SAMPLE, type RequestDetail, type RequestSample, type SampleSort } from "@/lib/api/trtllm-charts";
import { unpackSteps, type PackedStep } from "@/lib/metrics/trtllm-steps";
import type { Db } from "./db";

const SORT_COLUMN = { ttft: "ttft_ms", e2e: "e2e_ms", arrival: "arrival_ms" } as const;

/**
 * An evenly strided sample of at most `limit` requests (every k-th by arrival order), so the
 * sample keeps the run's shape; then sorted, missing values last whatever the order.
 */
export async function sampleRequests(
  db: Db,
  runId: string,
  sort: SampleSort,
  order: "asc" | "desc",
  limit = MAX_SAMPLE,
): Promise<RequestSample | null> {
  const { total } = await db
    .selectFrom("trtllm_requests")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
  const n = Number(total);
  if (n === 0) return null;
  const stride = Math.max(1, Math.ceil(n / Math.min(limit, MAX_SAMPLE)));
  // Rows are numbered 0…n-1: naming the sampled idx values reads them through the primary key,
  // where `idx % stride = 0` scanned every row of the run (seconds at a million requests).
  const wanted: number[] = [];
  for (let idx = 0; idx < n; idx += stride) wanted.push(idx);
  const rows = await db
    .selectFrom("trtllm_requests")
    .select(["idx", "mode", "request_id", "arrival_ms", "ttft_ms", "e2e_ms", "segments_json"])
    .where("run_id", "=", runId)
    .where("idx", "in", wanted)
    .execute();
  const col = SORT_COLUMN[sort];
  const sign = order === "asc" ? 1 : -1;
  rows.sort((a, b) => {
    const x = a[col];
    const y = b[col];
    if (x === null || y === null) return x === y ? a.idx - b.idx : x === null ? 1 : -1;
    return (x - y) * sign || a.idx - b.idx;
  });
  const mode = rows[0].mode;
  return {
    mode,
    total: n,
    segmentNames: segmentsFor(mode).map((s) => s.name),
    requests: rows.map((r) => ({
      idx: r.idx,
      requestId: r.request_id,
      arrivalMs: r.arrival_ms,
      ttftMs: r.ttft_ms,
      e2eMs: r.e2e_ms,
      segments: JSON.parse(r.segments_json) as SegmentValue[],
    })),
  };
}

export async function requestDetail(db: Db, runId: string, idx: number): Promise<RequestDetail | null> {
  const r = await db
    .selectFrom("trtllm_requests")
    .selectAll()
    .where("run_id", "=", runId)
    .where("idx", "=", idx)
    .executeTakeFirst();
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
      startMs: times[def.start] ?? null,
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
