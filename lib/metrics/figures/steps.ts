/**
 * The Breakdown view's step-level figures of TensorRT-LLM perf metrics, as renderer-neutral
 * descriptions (lib/api/figure.ts): the phases of generation steps and of context chunks, p50 and
 * p99 side by side. The view (components/run-views/breakdown-view.tsx, beside its step table) and
 * the offline report both draw them.
 */
import { TRTLLM_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import { TRTLLM_COMPLETED, type FigureDefinition, type FigureDescription } from "@/lib/api/figure";
import { STEP_METRICS } from "@/lib/api/trtllm-charts";

export const TRTLLM_STEPS: FigureDefinition = {
  window: TRTLLM_COMPLETED.window,
  requests:
    "completed requests with step metrics (return_perf_metrics on): generation steps from the decode record, context chunks from the prefill record",
  method:
    "differences of the worker's own step stamps (time_breakdown_metrics); GPU times as the engine reports them",
};

/** Each step phase's name, as the figures and the step table say it. */
export const STEP_PHASE_LABELS: Record<(typeof STEP_METRICS)[number], string> = {
  preprocessingMs: "preprocessing (previous token → forward)",
  forwardMs: "forward (CPU)",
  updateMs: "update (GPU sync)",
  sampleMs: "sample (CPU)",
  postprocessingMs: "postprocessing (sample → token)",
  gpuForwardMs: "GPU forward",
  gpuSampleMs: "GPU sample",
};

export type StepKind = "steps" | "chunks";

/** Whether any phase of a kind was recorded: the view draws the figure then. */
export const hasStepPhases = (payload: ChartPayload<typeof TRTLLM_CHARTS.steps>, kind: StepKind) =>
  STEP_METRICS.some((m) => payload[kind][m]);

/**
 * One row per phase, its p50 and p99 over every step (or context chunk) recorded side by side; a
 * phase not recorded has no bar, never 0 ms.
 */
export function stepPhasesFigure(
  payload: ChartPayload<typeof TRTLLM_CHARTS.steps>,
  kind: StepKind,
): FigureDescription {
  const stats = payload[kind];
  return {
    id: `${TRTLLM_CHARTS.steps.key}-${kind}`,
    exportName: kind === "steps" ? "generation-step-phases" : "context-chunk-phases",
    kind: "bars",
    title: kind === "steps" ? "Generation step phases" : "Context chunk phases",
    description: `Median and p99 of each phase over every ${kind === "steps" ? "generation step" : "context chunk"} recorded (time_breakdown_metrics)`,
    definition: TRTLLM_STEPS,
    missing: `No ${kind === "steps" ? "generation steps" : "context chunks"} were recorded: TensorRT-LLM writes step metrics with return_perf_metrics on.`,
    x: { label: "phase", unit: "" },
    y: { label: "phase time", unit: "ms" },
    categories: STEP_METRICS.map((m) => STEP_PHASE_LABELS[m]),
    tableColumns: [{ label: "steps recorded", values: STEP_METRICS.map((m) => stats[m]?.count ?? null) }],
    series: (["p50", "p99"] as const).map((s) => ({
      key: s,
      name: s,
      colour: s === "p50" ? ("chart-1" as const) : ("chart-4" as const),
      points: STEP_METRICS.map((m, i) => [i, stats[m]?.[s] ?? null] as const),
    })),
    legend: true,
  };
}
