import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StepList, type TrtllmStep } from "@/lib/formats/trtllm-step-list";
import {
  MAX_STEPS_PER_REQUEST,
  packSteps,
  packedStepsJson,
  stepEntries,
  StepValues,
} from "@/lib/metrics/trtllm-steps";

const step = (forwardStart: number, over: Partial<TrtllmStep> = {}): TrtllmStep => ({
  forwardStart,
  forwardEnd: forwardStart + 0.004,
  sampleStart: forwardStart + 0.005,
  sampleEnd: forwardStart + 0.007,
  tokenTime: forwardStart + 0.008,
  gpuForwardMs: 3.5,
  gpuSampleMs: null,
  iter: 1,
  ...over,
});

const rec = (steps: TrtllmStep[]) => ({ steps: StepList.from(steps), chunks: StepList.EMPTY });

describe("step values per metric", () => {
  it("computes each metric from the step stamps, the first step from the scheduled time", () => {
    const v = new StepValues("steps");
    v.add(rec([step(100), step(100.01), step(100.02, { tokenTime: null })]), 99.999);
    v.add(rec([step(200)]), null);
    v.add(null, 5);
    const ms = (m: Parameters<typeof v.values>[0]) => [...v.values(m)].map((x) => Math.round(x * 1e6) / 1e6);
    expect(ms("forwardMs")).toEqual([4, 4, 4, 4]);
    expect(ms("updateMs")).toEqual([1, 1, 1, 1]);
    expect(ms("sampleMs")).toEqual([2, 2, 2, 2]);
    // The third step has no token time: no postprocessing for it.
    expect(ms("postprocessingMs")).toEqual([1, 1, 1]);
    // First: 1 ms after scheduling; then 2 ms after each previous token; none for the request
    // whose scheduled time is unknown.
    expect(ms("preprocessingMs")).toEqual([1, 2, 2]);
    expect(ms("gpuForwardMs")).toEqual([3.5, 3.5, 3.5, 3.5]);
    expect(ms("gpuSampleMs")).toEqual([]);
    expect(v.truncated).toBe(false);
  });

  it("leaves out a first step further than 60 s from its scheduled time (an offset that does not fit)", () => {
    const v = new StepValues("steps");
    v.add(rec([step(100), step(100.01)]), 30);
    expect([...v.values("preprocessingMs")].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([2]);
  });

  it("keeps the first values up to the cap and says so", () => {
    const v = new StepValues("steps", 3);
    v.add(rec([step(1), step(2)]), null);
    v.add(rec([step(3), step(4)]), null);
    expect(v.values("forwardMs").length).toBe(3);
    expect(v.truncated).toBe(true);
  });
});

describe("stored step timeline", () => {
  const stamp = fc.option(fc.double({ min: 1, max: 2e6, noNaN: true }), { nil: null });
  const anyStep = fc.record({
    forwardStart: stamp,
    forwardEnd: stamp,
    sampleStart: stamp,
    sampleEnd: stamp,
    tokenTime: stamp,
    gpuForwardMs: fc.option(fc.double({ min: -5, max: 50, noNaN: true }), { nil: null }),
    gpuSampleMs: fc.option(fc.double({ min: 0, max: 5, noNaN: true }), { nil: null }),
    iter: fc.option(fc.nat(), { nil: null }),
  });
  const steps = fc.oneof(
    fc.array(anyStep, { maxLength: 12 }),
    fc.constant(Array.from({ length: MAX_STEPS_PER_REQUEST + 3 }, (_, i) => step(100 + i))),
  );
  const offset = fc.option(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { nil: null });

  it("is written as JSON.stringify writes the packed entries", () => {
    fc.assert(
      fc.property(steps, steps, offset, offset, (chunkSteps, genSteps, chunkOff, stepOff) => {
        const chunks = StepList.from(chunkSteps);
        const gen = StepList.from(genSteps);
        const runMs = (off: number | null) => (off === null ? null : (s: number) => (s - off - 7) * 1000);
        const want = JSON.stringify(
          packSteps([
            ...stepEntries("chunk", chunks, runMs(chunkOff)),
            ...stepEntries("step", gen, runMs(stepOff)),
          ]),
        );
        expect(packedStepsJson(chunks, runMs(chunkOff), gen, runMs(stepOff))).toBe(want);
      }),
      { numRuns: 500 },
    );
  });
});
