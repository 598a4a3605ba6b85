import { describe, expect, it } from "vitest";
import { TrtllmRecordStore } from "@/lib/ingest/trtllm-compact";
import { parseTrtllmRecord, type TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { StepSpill } from "@/lib/ingest/trtllm-step-spill";
import { clockOffsetSample } from "@/lib/metrics/trtllm-clock-offset";

function worker(raw: unknown): TrtllmWorkerRecord {
  const parsed = parseTrtllmRecord(raw);
  if (!("record" in parsed) || parsed.record.type !== "worker") throw new Error("not a worker record");
  return parsed.record;
}

/** Everything a record exposes, as plain data. */
function plain(r: TrtllmWorkerRecord) {
  return {
    type: r.type,
    requestId: r.requestId,
    ctxRequestId: r.ctxRequestId,
    disaggRequestId: r.disaggRequestId,
    status: r.status,
    timing: r.timing,
    firstIter: r.firstIter,
    lastIter: r.lastIter,
    kv: r.kv,
    speculative: r.speculative,
    steps: r.steps.head(1e9),
    chunks: r.chunks.head(1e9),
    stepCount: r.steps.length,
    chunkCount: r.chunks.length,
    offsetSample: clockOffsetSample(r),
  };
}

const step = (t: number) => ({
  forward_start_time: t,
  forward_end_time: t + 0.001,
  sample_start_time: t + 0.0012,
  sample_end_time: t + 0.0015,
  token_time: t + 0.0016,
  gpu_forward_time: 0.9,
  gpu_sample_time: null,
  iter: Math.round(t),
});

describe("compact TensorRT-LLM record store", () => {
  it("reads every field back exactly as parsed, ids of any form included", () => {
    const raws = [
      {
        request_id: 7,
        ctx_request_id: "0123",
        disagg_request_id: "abc-1",
        status: "complete",
        perf_metrics: {
          timing_metrics: {
            server_arrival_time: 1000.123456789,
            arrival_time: 1000.2,
            first_scheduled_time: 1000.3,
            first_token_time: 1000.4,
            server_first_token_time: null,
            last_token_time: 1001.5,
            kv_cache_transfer_start: 1000.25,
            kv_cache_transfer_end: 1000.27,
            kv_cache_size: 123456789,
          },
          first_iter: -3,
          last_iter: 12,
          kv_cache_metrics: {
            num_total_allocated_blocks: 9,
            num_new_allocated_blocks: 2,
            num_reused_blocks: 7,
            num_missed_blocks: 2,
          },
          speculative_decoding: { total_accepted_draft_tokens: 5, total_draft_tokens: 8 },
        },
        time_breakdown_metrics: {
          step_metrics: [step(500001.5), step(500001.6), step(500001.7)],
          ctx_chunk_metrics: [step(500000.1)],
        },
      },
      { request_id: 1.5e21, perf_metrics: { timing_metrics: { arrival_time: 3 } } },
      { perf_metrics: { timing_metrics: {} } },
    ];
    const store = new TrtllmRecordStore();
    const parsed = raws.map(worker);
    const compact = parsed.map((r) => store.add(r));
    parsed.forEach((r, i) => expect(plain(compact[i])).toEqual(plain(r)));
    // Parsed straight into the spill, as the analyzer does.
    const direct = raws.map((raw) => {
      const p = parseTrtllmRecord(raw, store.keepSteps);
      if (!("record" in p) || p.record.type !== "worker") throw new Error("not a worker record");
      return store.add(p.record);
    });
    parsed.forEach((r, i) => expect(plain(direct[i])).toEqual(plain(r)));
    expect(compact[0].ctxRequestId).toBe("0123");
    expect(compact[1].requestId).toBe(String(1.5e21));
    expect(clockOffsetSample(compact[0])).toBeCloseTo(500001.7016 - 1001.5, 9);
    store.close();
  });

  it("keeps many records apart, across the spill's write buffer and read windows", () => {
    const store = new TrtllmRecordStore();
    const n = 20_000;
    const parsed: TrtllmWorkerRecord[] = [];
    const compact: TrtllmWorkerRecord[] = [];
    for (let i = 0; i < n; i++) {
      const steps = Array.from({ length: 20 + (i % 7) }, (_, k) => step(1000 + i + k / 100));
      const r = worker({
        request_id: i,
        perf_metrics: { timing_metrics: { arrival_time: 10 + i, last_token_time: 11 + i } },
        time_breakdown_metrics: { step_metrics: steps },
      });
      parsed.push(r);
      compact.push(store.add(r));
    }
    for (const i of [0, 1, 2499, 16383, 16384, 16385, n - 1])
      expect(plain(compact[i])).toEqual(plain(parsed[i]));
    store.close();
  });

  it("spill returns blocks larger than its buffer and blocks still buffered", () => {
    const spill = new StepSpill();
    const big = Float64Array.from({ length: (1 << 19) + 5 }, (_, i) => i * 0.5);
    const small = Float64Array.from([1, 2, 3]);
    const a = spill.append(small);
    const b = spill.append(big);
    const c = spill.append(small);
    expect([...spill.read(a, 3)]).toEqual([1, 2, 3]);
    expect(spill.read(b, big.length)).toEqual(big);
    expect([...spill.read(c, 3)]).toEqual([1, 2, 3]);
    spill.close();
  });

  it("spill reads blocks back in any order, from the file and from the write buffer", () => {
    const spill = new StepSpill();
    const blocks: Array<{ at: number; values: Float64Array }> = [];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let b = 0; b < 20_000; b++) {
      const values = Float64Array.from({ length: 8 * (1 + Math.floor(rand() * 20)) }, () => rand() * 1e6);
      blocks.push({ at: spill.append(values), values });
    }
    for (let k = 0; k < 5000; k++) {
      const b = blocks[Math.floor(rand() * blocks.length)];
      expect(spill.read(b.at, b.values.length)).toEqual(b.values);
    }
    spill.close();
  });

  it("rebuilds disagg records with their copies, servers, string ids and statuses", () => {
    const store = new TrtllmRecordStore();
    const raws = [
      {
        ctx_server: "http://ctx0:8001",
        gen_server: "http://gen0:8002",
        disagg_server_arrival_time: 10.5,
        disagg_ctx_dispatch_time: 10.6,
        disagg_server_first_token_time: 11.25,
        disagg_request_id: "req-x",
        status: "complete",
        ctx_perf_metrics: {
          request_id: 1,
          ctx_request_id: 1,
          perf_metrics: { timing_metrics: { arrival_time: 10.7 } },
        },
        gen_perf_metrics: {
          request_id: 2,
          status: "cancelled",
          perf_metrics: { timing_metrics: { arrival_time: 11 } },
        },
      },
      {
        ctx_server: "http://ctx0:8001",
        disagg_request_id: 42,
        status: "timeout",
        ctx_perf_metrics: { request_id: 3, perf_metrics: { timing_metrics: {} } },
      },
    ];
    for (const raw of raws) {
      const parsed = parseTrtllmRecord(raw);
      if (!("record" in parsed) || parsed.record.type !== "disagg") throw new Error("not a disagg record");
      const d = parsed.record;
      const back = store.disagg(store.addDisagg(d));
      const { ctx, gen, ...rest } = back;
      const { ctx: ctx0, gen: gen0, ...rest0 } = d;
      expect(rest).toEqual(rest0);
      expect(ctx && plain(ctx)).toEqual(ctx0 && plain(ctx0));
      expect(gen && plain(gen)).toEqual(gen0 && plain(gen0));
    }
    store.close();
  });
});
