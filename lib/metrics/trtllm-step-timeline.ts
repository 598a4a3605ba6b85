/** One request's steps as timeline bars (pure; drawn by chart-area-waterfall-steps.tsx). */
import type { RequestDetail } from "@/lib/api/trtllm-charts";

export const STEP_LANES = ["GPU", "CPU"] as const;

export interface StepBar {
  step: string;
  part: "forward" | "update" | "sample" | "gpu forward" | "gpu sample";
  lane: number;
  /** ms after the request's arrival */
  x1: number;
  x2: number;
  colour: string;
}

const COLOUR = {
  forward: "var(--chart-1)",
  update: "var(--chart-3)",
  sample: "var(--chart-5)",
  "gpu forward": "var(--chart-2)",
  "gpu sample": "var(--chart-6)",
} as const;

/**
 * CPU parts follow each other from the forward start; GPU forward is drawn from the forward
 * start and GPU sample from the sample start (CUDA-event durations, no own timestamps).
 */
export function stepTimelineBars(detail: RequestDetail): StepBar[] {
  const origin = detail.arrivalMs ?? 0;
  const out: StepBar[] = [];
  let chunk = 0;
  let step = 0;
  for (const s of detail.steps) {
    if (s.startMs === null) continue;
    const name = s.kind === "chunk" ? `chunk ${++chunk}` : `step ${++step}`;
    let x = s.startMs - origin;
    const add = (part: StepBar["part"], lane: number, from: number, ms: number | null) => {
      if (ms === null || ms <= 0) return;
      out.push({ step: name, part, lane, x1: from, x2: from + ms, colour: COLOUR[part] });
    };
    const forwardStart = x;
    add("forward", 1, x, s.forwardMs);
    x += s.forwardMs ?? 0;
    add("update", 1, x, s.updateMs);
    x += s.updateMs ?? 0;
    const sampleStart = x;
    add("sample", 1, x, s.sampleMs);
    add("gpu forward", 0, forwardStart, s.gpuForwardMs);
    add("gpu sample", 0, sampleStart, s.gpuSampleMs);
  }
  return out;
}
