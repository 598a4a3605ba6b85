/** The steps and chunks of a TensorRT-LLM record, packed so millions of them stay cheap. */
import type { Seconds } from "./trtllm-record";

/** One context chunk or generation step; times in the worker process's step clock (seconds). */
export interface TrtllmStep {
  forwardStart: Seconds;
  forwardEnd: Seconds;
  sampleStart: Seconds;
  sampleEnd: Seconds;
  tokenTime: Seconds;
  gpuForwardMs: number | null;
  gpuSampleMs: number | null;
  iter: number | null;
  /**
   * The forward and sample durations (ms) as TensorRT-LLM's response headers send them, without
   * the stamps they were taken from (docs/formats.md §TensorRT-LLM metrics in responses); null
   * when the stamps are recorded, which then give the durations.
   */
  forwardSentMs?: number | null;
  sampleSentMs?: number | null;
}

/**
 * A record's steps packed into one Float64Array (NaN = not recorded). Millions of small step
 * objects made garbage collection dominate ingest time, a typed array per record does not. A
 * list can also be lazy (`load` reads the values on first use): the analyzer keeps steps out
 * of memory until a request's row is written.
 */
export class StepList {
  static readonly WIDTH = 10;
  static readonly EMPTY = new StepList(new Float64Array(0));
  readonly length: number;
  private data: Float64Array | null;

  constructor(
    data: Float64Array | null,
    length?: number,
    private readonly load?: () => Float64Array,
  ) {
    this.data = data;
    this.length = length ?? (data ? data.length / StepList.WIDTH : 0);
  }

  static from(steps: readonly TrtllmStep[]): StepList {
    if (steps.length === 0) return StepList.EMPTY;
    const w = StepList.WIDTH;
    const data = new Float64Array(steps.length * w);
    steps.forEach((s, i) => {
      const vals = [
        s.forwardStart,
        s.forwardEnd,
        s.sampleStart,
        s.sampleEnd,
        s.tokenTime,
        s.gpuForwardMs,
        s.gpuSampleMs,
        s.iter,
        s.forwardSentMs,
        s.sampleSentMs,
      ];
      vals.forEach((v, k) => (data[i * w + k] = v ?? NaN));
    });
    return new StepList(data);
  }

  /** The packed values, `length × WIDTH` of them. */
  values(): Float64Array {
    if (this.data === null) this.data = this.load ? this.load() : new Float64Array(0);
    return this.data;
  }

  get(i: number): TrtllmStep {
    const data = this.values();
    const o = i * StepList.WIDTH;
    const v = (k: number) => {
      const x = data[o + k];
      return Number.isNaN(x) ? null : x;
    };
    return {
      forwardStart: v(0),
      forwardEnd: v(1),
      sampleStart: v(2),
      sampleEnd: v(3),
      tokenTime: v(4),
      gpuForwardMs: v(5),
      gpuSampleMs: v(6),
      iter: v(7),
      forwardSentMs: v(8),
      sampleSentMs: v(9),
    };
  }

  /** The last step's token time, else its sample end (the clock-offset sample's end); null when empty. */
  lastTokenTime(): Seconds {
    if (this.length === 0) return null;
    const last = this.get(this.length - 1);
    return last.tokenTime ?? last.sampleEnd;
  }

  /** The first `n` steps as objects. */
  head(n: number): TrtllmStep[] {
    const out: TrtllmStep[] = [];
    for (let i = 0; i < Math.min(n, this.length); i++) out.push(this.get(i));
    return out;
  }
}
