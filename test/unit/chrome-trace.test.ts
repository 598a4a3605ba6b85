import { describe, expect, it } from "vitest";
import {
  aiperfRequestEvents,
  LaneTable,
  LANES_PER_REQUEST,
  ProcessTable,
  trtllmRequestEvents,
  type TraceEvent,
} from "@/lib/metrics/chrome-trace";
import type { StepEntry } from "@/lib/api/trtllm-charts";

const step = (startMs: number, forwardMs: number, iter: number): StepEntry => ({
  kind: "step",
  iter,
  startMs,
  forwardMs,
  updateMs: 1,
  sampleMs: 1,
  gpuForwardMs: forwardMs - 0.5,
  gpuSampleMs: null,
});

/** An aggregated request: arrival 10 ms, queue to 12, first scheduled 12, first token 40, server first token 41, last token 100. */
const row = (steps: StepEntry[]) => ({
  idx: 2,
  mode: "aggregated" as const,
  requestId: "r2",
  ctxWorker: "perf_metrics-0",
  genWorker: null,
  times: {
    ctxServerArrival: 10,
    ctxArrival: 11,
    ctxFirstScheduled: 12,
    ctxFirstToken: 40,
    ctxServerFirstToken: 41,
    ctxLastToken: 100,
  },
  // Hand-computed: 1, 1, 28, 1 ms up to the first token (= TTFT 31 ms), decode 59 ms from the
  // server's first response (41) to the last token (100).
  segments: [1, 1, 28, 1, 59],
  steps,
});

const spans = (events: TraceEvent[]) => events.filter((e) => e.ph === "X");

describe("TensorRT-LLM request as trace events", () => {
  it("puts the TTFT spans end to end on the request's track and decode on its own", () => {
    const events = trtllmRequestEvents(row([]), new ProcessTable());
    const base = 2 * LANES_PER_REQUEST + 1;
    const ttft = spans(events).filter((e) => e.cat === "ttft");
    expect(ttft.map((e) => [e.name, e.tid, e.ts, e.dur])).toEqual([
      ["ctx_preprocessing", base, 10_000, 1000],
      ["ctx_queue", base, 11_000, 1000],
      ["ctx_processing", base, 12_000, 28_000],
      ["ctx_postprocessing", base, 40_000, 1000],
    ]);
    const decode = spans(events).find((e) => e.name === "decode")!;
    expect([decode.tid, decode.ts, decode.dur]).toEqual([base + 1, 41_000, 59_000]);
  });

  it("leaves a segment not recorded without a span, never a 0 µs one", () => {
    const r = row([]);
    r.segments = [1, null as unknown as number, 28, { excludedMs: -9 } as unknown as number, 60];
    const names = spans(trtllmRequestEvents(r, new ProcessTable())).map((e) => e.name);
    expect(names).toEqual(["ctx_preprocessing", "ctx_processing", "decode"]);
  });

  it("moves a step that overlaps the previous one to the next CPU lane", () => {
    // Step 2 starts 1 ms before step 1's sample ends (overlap scheduler); step 3 after both.
    const events = trtllmRequestEvents(
      row([step(41, 5, 1), step(47, 5, 2), step(60, 5, 3)]),
      new ProcessTable(),
    );
    const whole = spans(events).filter((e) => e.cat === "cpu" && e.name.startsWith("step"));
    const base = 2 * LANES_PER_REQUEST + 1;
    expect(whole.map((e) => [e.name, e.tid, e.ts, e.dur])).toEqual([
      ["step 1", base + 2, 41_000, 7000],
      ["step 2", base + 3, 47_000, 7000],
      ["step 3", base + 2, 60_000, 7000],
    ]);
    const gpu = spans(events).filter((e) => e.cat === "gpu");
    expect(gpu.map((e) => [e.tid, e.dur])).toEqual([
      [base + 5, 4500],
      [base + 5, 4500],
      [base + 5, 4500],
    ]);
    const threads = events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => e.args!.name);
    expect(threads).toEqual([
      "request r2",
      "request r2 · decode",
      "request r2 · CPU steps",
      "request r2 · GPU steps",
      "request r2 · CPU steps (overlapped)",
    ]);
  });
});

describe("aiperf requests as trace events", () => {
  const row = (seq: number, startMs: number, endMs: number, worker: string | null = "worker_a") => ({
    seq,
    requestId: `r${seq}`,
    worker,
    phase: "profiling" as const,
    ok: true,
    errorType: null,
    startMs,
    endMs,
    ttftMs: 1,
  });

  it("puts a worker's requests on the first of its tracks that is free, one process per worker", () => {
    const procs = new ProcessTable();
    const lanes = new LaneTable();
    // [0,10] opens track 1; [5,15] overlaps it: track 2; [10,20] starts as track 1 ends: track 1;
    // [12,14] overlaps both: track 3. Another worker's request starts its own process at track 1.
    const placed = [
      row(0, 0, 10),
      row(1, 5, 15),
      row(2, 10, 20),
      row(3, 12, 14),
      row(4, 1, 2, "worker_b"),
    ].map((r) => aiperfRequestEvents(r, procs, lanes).find((e) => e.ph === "X")!);
    expect(placed.map((e) => [e.pid, e.tid])).toEqual([
      [1, 1],
      [1, 2],
      [1, 1],
      [1, 3],
      [2, 1],
    ]);
    expect(placed[0].name).toBe("request r0");
    const names = lanes.drain().filter((e) => e.name === "thread_name");
    expect(names.map((e) => [e.pid, e.tid, e.args!.name])).toEqual([
      [1, 1, "requests"],
      [1, 2, "requests (2)"],
      [1, 3, "requests (3)"],
      [2, 1, "requests"],
    ]);
    expect(
      procs
        .drain()
        .filter((e) => e.name === "process_name")
        .map((e) => e.args!.name),
    ).toEqual(["worker_a", "worker_b"]);
  });
});
