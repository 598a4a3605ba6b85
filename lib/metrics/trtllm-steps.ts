/**
 * Per-step and per-chunk segments of `time_breakdown_metrics` (reference/trtllm.md §3.2).
 * Durations inside one step are differences of the same clock and need no offset; placing a step
 * on the request timeline does (lib/metrics/trtllm-clock-offset.ts).
 */
import type { Seconds, StepList } from "@/lib/formats/trtllm-record";
import { MAX_CORRECTED_GAP_S } from "./trtllm-clock-offset";
import type { StepEntry, StepMetric } from "./trtllm-payloads";

const ms = (a: Seconds, b: Seconds) => (a === null || b === null ? null : (b - a) * 1000);

/** Milliseconds rounded to 0.1 µs for storage and display (never for statistics). */
export const roundMs = (v: number) => Math.round(v * 1e4) / 1e4;
const roundOrNull = (v: number | null) => (v === null ? null : roundMs(v));

/** A growable Float64 column: 8 bytes a value where a JS array of boxed numbers took far more. */
class Column {
  private data = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Collects step values per metric, up to a cap so a huge run cannot exhaust memory. */
export class StepValues {
  private readonly columns: Record<StepMetric, Column> = {
    preprocessingMs: new Column(),
    forwardMs: new Column(),
    updateMs: new Column(),
    sampleMs: new Column(),
    postprocessingMs: new Column(),
    gpuForwardMs: new Column(),
    gpuSampleMs: new Column(),
  };
  truncated = false;

  constructor(private readonly cap = 2_000_000) {}

  /** The collected values of one metric, in the order they were added. */
  values(metric: StepMetric): Float64Array {
    return this.columns[metric].values();
  }

  private push(metric: StepMetric, v: number | null): void {
    if (v === null || !Number.isFinite(v)) return;
    const column = this.columns[metric];
    if (column.length >= this.cap) this.truncated = true;
    else column.push(v);
  }

  /**
   * Adds one request's steps. `scheduledInStepClock` is the request's first_scheduled_time
   * moved into the step clock (null when the offset is unknown): the first step's preprocessing
   * needs it; later steps start from the previous token. Preprocessing may be negative with the
   * overlap scheduler, so it is kept as measured.
   */
  add(steps: StepList, scheduledInStepClock: Seconds): void {
    let prevToken: Seconds = null;
    for (let i = 0; i < steps.length; i++) {
      const s = steps.get(i);
      const prev = i === 0 ? scheduledInStepClock : prevToken;
      prevToken = s.tokenTime;
      const pre = ms(prev, s.forwardStart);
      if (pre !== null && (i > 0 || Math.abs(pre) <= MAX_CORRECTED_GAP_S * 1000))
        this.push("preprocessingMs", pre);
      this.push("forwardMs", ms(s.forwardStart, s.forwardEnd));
      this.push("updateMs", ms(s.forwardEnd, s.sampleStart));
      this.push("sampleMs", ms(s.sampleStart, s.sampleEnd));
      this.push("postprocessingMs", ms(s.sampleEnd, s.tokenTime));
      this.push("gpuForwardMs", s.gpuForwardMs);
      this.push("gpuSampleMs", s.gpuSampleMs);
    }
  }
}

/** Steps kept per request for the waterfall; the rest are counted, not stored. */
export const MAX_STEPS_PER_REQUEST = 512;

/**
 * Step entries for one request's waterfall. `toRunMs` maps a step-clock time onto the run
 * timeline (ms from the run start), or is null when the worker's clock offset is unknown.
 */
export function stepEntries(
  kind: "chunk" | "step",
  steps: StepList,
  toRunMs: ((stepClockS: number) => number) | null,
): StepEntry[] {
  return steps.head(MAX_STEPS_PER_REQUEST).map((s) => ({
    kind,
    iter: s.iter,
    startMs: toRunMs && s.forwardStart !== null ? roundMs(toRunMs(s.forwardStart)) : null,
    forwardMs: roundOrNull(ms(s.forwardStart, s.forwardEnd)),
    updateMs: roundOrNull(ms(s.forwardEnd, s.sampleStart)),
    sampleMs: roundOrNull(ms(s.sampleStart, s.sampleEnd)),
    gpuForwardMs: s.gpuForwardMs,
    gpuSampleMs: s.gpuSampleMs,
  }));
}

/** A step entry as stored: a positional array, a third the size of the object form. */
export type PackedStep = [
  0 | 1,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

export function packSteps(entries: readonly StepEntry[]): PackedStep[] {
  return entries.map((e) => [
    e.kind === "chunk" ? 0 : 1,
    e.iter,
    e.startMs,
    e.forwardMs,
    e.updateMs,
    e.sampleMs,
    e.gpuForwardMs,
    e.gpuSampleMs,
  ]);
}

export function unpackSteps(packed: readonly PackedStep[]): StepEntry[] {
  return packed.map(([kind, iter, startMs, forwardMs, updateMs, sampleMs, gpuForwardMs, gpuSampleMs]) => ({
    kind: kind === 0 ? "chunk" : "step",
    iter,
    startMs,
    forwardMs,
    updateMs,
    sampleMs,
    gpuForwardMs,
    gpuSampleMs,
  }));
}
