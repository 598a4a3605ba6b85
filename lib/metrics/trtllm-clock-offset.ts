/**
 * Step and chunk timestamps (`time_breakdown_metrics`) use a per-process clock base that can be
 * hundreds of thousands of seconds away from `timing_metrics` (docs/metrics.md §Step clock offsets). Placing
 * a step on the request timeline without this correction puts it days away from the request.
 */
import type { TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { percentileSorted, sortedFiniteInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

/** Fewer samples than this cannot tell a constant offset from one odd request. */
export const MIN_OFFSET_SAMPLES = 3;

/**
 * One sample per record: the last instance's token time minus its reference, `last_token_time`
 * for step metrics and `first_token_time` for context chunks. Token time is optional; the
 * sample end is the closest stamp before it (the gap is response handling, well under a ms).
 */
export function clockOffsetSample(rec: TrtllmWorkerRecord): number | null {
  if (rec.offsetSample !== undefined) return rec.offsetSample;
  if (rec.steps.length && rec.timing.lastToken !== null) {
    const t = rec.steps.lastTokenTime();
    if (t !== null) return t - rec.timing.lastToken;
  }
  if (rec.chunks.length && rec.timing.firstToken !== null) {
    const t = rec.chunks.lastTokenTime();
    if (t !== null) return t - rec.timing.firstToken;
  }
  return null;
}

/** The offset of one worker process: the median sample, so a few late records cannot move it. */
export function estimateClockOffset(samples: readonly number[]): number | null {
  return atOnce(estimateClockOffsetInSteps(samples));
}

/**
 * `estimateClockOffset` in steps: the samples gathered and sorted in steps of at most 16,384
 * (`sortedFiniteInSteps`; a worker of 60,000 records sorted its samples in one piece before).
 */
export function* estimateClockOffsetInSteps(samples: readonly number[]): Steps<number | null> {
  if (samples.length < MIN_OFFSET_SAMPLES) return null;
  return percentileSorted(yield* sortedFiniteInSteps(samples), 50);
}

/** A corrected first-step preprocessing longer than this means the offset does not fit that record. */
export const MAX_CORRECTED_GAP_S = 60;
