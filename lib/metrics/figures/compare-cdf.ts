/**
 * The compare page's latency CDF overlay as a renderer-neutral description (lib/api/figure.ts):
 * per run, the share of its requests at or below each value, on one axis, so a shift left is
 * faster at every percentile. The compare page (components/charts/chart-line-compare-cdf.tsx) and
 * the comparison's offline report (lib/runs/report/compare-report.ts) both draw it from here.
 */
import type { AIPERF_CHARTS, ChartPayload } from "@/lib/api/chart-catalog";
import type { ColourToken, FigureDescription } from "@/lib/api/figure";
import { LATENCY_FIELD_IDS, LATENCY_FIELDS, type LatencyField } from "@/lib/api/metric-catalog";
import { formatCount } from "@/lib/format-number";
import { itlWordsOf } from "@/lib/metrics/request-words";

/** A compared run and its stored distribution payload (null: the run has none). */
export interface CompareCdfRun {
  id: string;
  name: string;
  /** Its place among the compared runs: its colour, as every compare chart draws it */
  index: number;
  /** aiperf's or TensorRT-LLM's: one payload shape */
  distribution: ChartPayload<typeof AIPERF_CHARTS.distribution> | null;
}

/** A compared run's colour by its place: the chart palette's tokens, 8 runs at most. */
export const runToken = (index: number): ColourToken => `chart-${(index % 8) + 1}` as ColourToken;

/**
 * A latency's name on the overlay (the metric catalog's, as the compare table names it): the
 * per-request ITL in the compared runs' words (vLLM's and SGLang's TPOT).
 */
export function compareCdfLabel(runs: Parameters<typeof itlWordsOf>[0], metric: LatencyField): string {
  return metric === "itlMs" ? itlWordsOf(runs).short : LATENCY_FIELDS[metric].label;
}

/** The latency fields any of the runs has a distribution of, in the catalog's order. */
export function compareCdfMetrics(runs: readonly CompareCdfRun[]): LatencyField[] {
  return LATENCY_FIELD_IDS.filter((m) => runs.some((r) => r.distribution?.metrics[m]));
}

export function compareCdfFigure(
  runs: readonly CompareCdfRun[],
  metric: LatencyField,
  label: string,
): FigureDescription {
  const drawn = runs.flatMap((r) => {
    const d = r.distribution?.metrics[metric];
    return d ? [{ run: r, cdf: d.cdf, sample: r.distribution?.sample }] : [];
  });
  // A run whose records are a sample of its aiperf summary is drawn from that sample, and says so.
  const samples = drawn.flatMap(({ run, sample }) =>
    sample
      ? [`${run.name}: ${formatCount(sample.records)} of ${formatCount(sample.described)} requests`]
      : [],
  );
  return {
    id: `cdf-${metric}`,
    exportName: "compare-latency-cdf",
    kind: "line",
    title: `${label}: CDF overlay`,
    description: `Percent of successful profiling requests at or below each value, per run${
      samples.length > 0
        ? `. Drawn from a sample of the records aiperf summarised (${samples.join("; ")}); the tables give aiperf's own figures`
        : ""
    }`,
    definition: {
      window: "each run's profiling phase (aiperf) or perf-metrics files (TensorRT-LLM)",
      requests: "aiperf: successful profiling requests; TensorRT-LLM: completed requests",
    },
    missing:
      metric === "tpotMs"
        ? `No run here has per-request ${label} records: compare TensorRT-LLM runs whose perf metrics have step metrics (return_perf_metrics on).`
        : `No run here has per-request ${label} records: compare runs with aiperf profile_export.jsonl.`,
    x: { label, unit: "ms" },
    y: { label: "requests at or below", unit: "%", domain: [0, 100] },
    series: drawn.map(({ run, cdf }) => ({
      key: run.id,
      name: run.name,
      colour: runToken(run.index),
      points: cdf.map((p) => [p.value, p.fraction * 100] as const),
    })),
    step: true,
    legend: true,
  };
}
