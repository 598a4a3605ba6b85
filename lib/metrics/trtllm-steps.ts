/**
 * Per-step and per-chunk segments of `time_breakdown_metrics` (docs/metrics.md §Step metrics).
 * Durations inside one step are differences of the same clock and need no offset; placing a step
 * on the request timeline does (lib/metrics/trtllm-clock-offset.ts).
 */
import type { Seconds, TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { StepList } from "@/lib/formats/trtllm-step-list";
import { atOnce, type Steps } from "./steps";
import { MAX_CORRECTED_GAP_S } from "./trtllm-clock-offset";
import type { StepEntry, StepMetric } from "@/lib/api/trtllm-charts";

const ms = (a: Seconds, b: Seconds) => (a === null || b === null ? null : (b - a) * 1000);

/** Milliseconds rounded to 0.1 µs for storage and display (never for statistics). */
export const roundMs = (v: number) => Math.round(v * 1e4) / 1e4;
const roundOrNull = (v: number | null) => (v === null ? null : roundMs(v));

/** Values one metric collects at most, so a huge run cannot exhaust memory. */
export const MAX_STEP_VALUES = 2_000_000;

/**
 * Collects, per request, where its steps are and when it was scheduled, then computes step
 * statistics one metric at a time: all seven metrics' values at once took 8 bytes × 7 per step
 * of the run, one metric's values are a seventh of that. Each record's list is asked for again
 * per metric (the analyzer's records re-read their values from disk; none is kept).
 */
export class StepValues {
  private readonly records: Array<Pick<TrtllmWorkerRecord, "steps" | "chunks"> | null> = [];
  private scheduled = new Float64Array(1024);
  /** Steps of every request added: a metric has at most this many values */
  private stepCount = 0;
  truncated = false;

  constructor(
    private readonly kind: "steps" | "chunks",
    private readonly cap = MAX_STEP_VALUES,
  ) {}

  /**
   * Adds one request's steps. `scheduledInStepClock` is the request's first_scheduled_time
   * moved into the step clock (null when the offset is unknown): the first step's preprocessing
   * needs it; later steps start from the previous token. Preprocessing may be negative with the
   * overlap scheduler, so it is kept as measured.
   */
  add(rec: Pick<TrtllmWorkerRecord, "steps" | "chunks"> | null, scheduledInStepClock: Seconds): void {
    const i = this.records.length;
    if (i === this.scheduled.length) {
      const next = new Float64Array(i * 2);
      next.set(this.scheduled);
      this.scheduled = next;
    }
    this.records.push(rec);
    this.scheduled[i] = scheduledInStepClock ?? NaN;
    this.stepCount += rec?.[this.kind]?.length ?? 0;
  }

  /** One metric's values, in request and step order, up to the cap. */
  values(metric: StepMetric): Float64Array {
    return atOnce(this.valuesInSteps(metric));
  }

  /**
   * `values` in steps (./steps.ts): a step reads the step lists of requests until it has gone
   * over VALUES_STEP steps (a request counting one more), into an array sized from the steps
   * added (no doubling copy of what is held). The same values.
   */
  *valuesInSteps(metric: StepMetric): Steps<Float64Array> {
    const out = new Float64Array(Math.min(this.stepCount, this.cap));
    let n = 0;
    let work = 0;
    const w = StepList.WIDTH;
    const pick = METRIC_OF[metric];
    for (let r = 0; r < this.records.length; r++) {
      if (work >= VALUES_STEP) {
        work = 0;
        yield;
      }
      work++;
      const steps = this.records[r]?.[this.kind] ?? StepList.EMPTY;
      if (steps.length === 0) continue;
      work += steps.length;
      const d = steps.values();
      for (let i = 0; i < steps.length; i++) {
        const v = pick(d, i * w, i === 0 ? this.scheduled[r] : d[(i - 1) * w + 4], i === 0);
        // NaN: a stamp not recorded (the null of ms()); never counted.
        if (!Number.isFinite(v)) continue;
        if (n >= this.cap) {
          this.truncated = true;
          return out.subarray(0, n);
        }
        out[n++] = v;
      }
    }
    return out.subarray(0, n);
  }
}

/** Steps (and requests) one step of `StepValues.valuesInSteps` reads: a request's list may come from disk. */
const VALUES_STEP = 4_096;

/**
 * One metric of step `o` (offset into the packed values; NaN = not recorded, which propagates):
 * `prev` is when the step could start (the previous token, or the scheduled time for the first).
 */
const METRIC_OF: Record<StepMetric, (d: Float64Array, o: number, prev: number, first: boolean) => number> = {
  preprocessingMs: (d, o, prev, first) => {
    const pre = (d[o] - prev) * 1000;
    // A first step further than this from its scheduled time means the clock offset does not fit.
    return first && !(Math.abs(pre) <= MAX_CORRECTED_GAP_S * 1000) ? NaN : pre;
  },
  // A duration sent without its stamps (response headers) where the stamps are not recorded.
  forwardMs: (d, o) => orSent((d[o + 1] - d[o]) * 1000, d[o + 8]),
  updateMs: (d, o) => (d[o + 2] - d[o + 1]) * 1000,
  sampleMs: (d, o) => orSent((d[o + 3] - d[o + 2]) * 1000, d[o + 9]),
  postprocessingMs: (d, o) => (d[o + 4] - d[o + 3]) * 1000,
  gpuForwardMs: (d, o) => d[o + 5],
  gpuSampleMs: (d, o) => d[o + 6],
};

const orSent = (fromStamps: number, sent: number) => (Number.isNaN(fromStamps) ? sent : fromStamps);

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
    forwardMs: roundOrNull(ms(s.forwardStart, s.forwardEnd) ?? s.forwardSentMs ?? null),
    updateMs: roundOrNull(ms(s.forwardEnd, s.sampleStart)),
    sampleMs: roundOrNull(ms(s.sampleStart, s.sampleEnd) ?? s.sampleSentMs ?? null),
    gpuForwardMs: s.gpuForwardMs,
    gpuSampleMs: s.gpuSampleMs,
  }));
}

/**
 * `JSON.stringify(packSteps([...stepEntries("chunk", chunks, chunkToRunMs), ...stepEntries("step",
 * steps, stepToRunMs)]))`, written straight from the packed step values: the object, the entry
 * and the positional array per step that way were most of a large run's garbage in `finish`.
 */
export function packedStepsJson(
  chunks: StepList,
  chunkToRunMs: ((stepClockS: number) => number) | null,
  steps: StepList,
  stepToRunMs: ((stepClockS: number) => number) | null,
): string {
  let out = "[";
  out = appendPacked(out, 0, chunks, chunkToRunMs);
  out = appendPacked(out, 1, steps, stepToRunMs);
  return out + "]";
}

function appendPacked(
  out: string,
  kind: 0 | 1,
  list: StepList,
  toRunMs: ((stepClockS: number) => number) | null,
): string {
  const n = Math.min(MAX_STEPS_PER_REQUEST, list.length);
  if (n === 0) return out;
  const d = list.values();
  const w = StepList.WIDTH;
  for (let i = 0; i < n; i++) {
    const o = i * w;
    const forwardStart = d[o];
    const forwardEnd = d[o + 1];
    const sampleStart = d[o + 2];
    const sampleEnd = d[o + 3];
    // NaN marks a value not recorded: null, as StepList.get reads it.
    const startMs = toRunMs && !Number.isNaN(forwardStart) ? roundMs(toRunMs(forwardStart)) : null;
    out +=
      (out.length > 1 ? ",[" : "[") +
      kind +
      "," +
      json(d[o + 7]) +
      "," +
      json(startMs) +
      "," +
      json(roundedSpan(forwardStart, forwardEnd) ?? roundedSent(d[o + 8])) +
      "," +
      json(roundedSpan(forwardEnd, sampleStart)) +
      "," +
      json(roundedSpan(sampleStart, sampleEnd) ?? roundedSent(d[o + 9])) +
      "," +
      json(d[o + 5]) +
      "," +
      json(d[o + 6]) +
      "]";
  }
  return out;
}

const roundedSpan = (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? null : roundMs((b - a) * 1000);
const roundedSent = (v: number) => (Number.isNaN(v) ? null : roundMs(v));

/** A number as JSON.stringify writes it (null for NaN, null and ±Infinity). */
const json = (v: number | null) => (v === null || !Number.isFinite(v) ? "null" : String(v));

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
