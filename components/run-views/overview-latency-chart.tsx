"use client";

import { useQueryState } from "nuqs";
import type { MouseEvent, ReactNode } from "react";
import { latencyLabel } from "@/components/aiperf/latency-metric";
import { ChartFigure } from "@/components/charts/chart-figure";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { runSearchParams } from "@/components/run/search-params";
import { useStillFigure } from "@/components/run/still-figures";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";
import { runView } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import {
  aiperfLatencyDistributionFigures,
  trtllmLatencyDistributionFigures,
} from "@/lib/metrics/figures/latency-distribution";
import { runRequestsDefinition, sampleText } from "@/lib/metrics/figures/request-definitions";

/**
 * The metric the Overview charts: TTFT, the latency a user waits for before anything shows and
 * the first figure a reader of a serving benchmark looks for. The Latency view has the others.
 */
const METRIC = "ttftMs";

/** Where the Overview's chart comes from, or why there is none (said in text, never an empty frame). */
export type OverviewChartSource = "aiperf" | "trtllm" | { missing: string };

/**
 * Which distribution the Overview draws: aiperf's (or an imported tool's) per-request records, or,
 * for a run whose latency is TensorRT-LLM's perf metrics alone, theirs; as the Latency view does.
 */
export function overviewChartSource(run: RunSummary): OverviewChartSource {
  if (run.requests?.source === "aiperf") return "aiperf";
  if (!run.requests && run.timeBreakdown?.latency) return "trtllm";
  if (run.requests)
    return {
      missing:
        "the run's figures come from a summary, which gives percentiles but not the per-request values a distribution is drawn from. Upload aiperf profile_export.jsonl (per-request records)",
    };
  return {
    missing:
      "it has no per-request latency. Upload aiperf profile_export.jsonl (per-request records) or TensorRT-LLM perf metrics (return_perf_metrics on)",
  };
}

/**
 * The Overview's one chart: the TTFT histogram of the Latency view, the same figure description
 * (lib/metrics/figures/latency-distribution.ts) and the same server drawing before hydration
 * (lib/runs/first-figures.ts, `latency-histogram/ttftMs`), with a link to the full view. A run
 * without per-request latency gets a line saying what is missing.
 */
export function OverviewLatencyChart({ run }: { run: RunSummary }) {
  const source = overviewChartSource(run);
  const aiperf = useRunChart(run.id, AIPERF_CHARTS.distribution, source === "aiperf");
  const trtllm = useRunChart(run.id, TRTLLM_CHARTS.latencyDistribution, source === "trtllm");
  const still = useStillFigure(`latency-histogram/${METRIC}`);
  if (typeof source === "object")
    return (
      <Frame run={run}>
        <p className="text-sm text-muted" data-testid="overview-chart-missing">
          No latency distribution for this run: {source.missing}.
        </p>
      </Frame>
    );
  const query = source === "aiperf" ? aiperf : trtllm;
  const d = query.data?.metrics[METRIC] ?? null;
  let figure: FigureDescription | null = null;
  if (aiperf.data && source === "aiperf")
    figure = aiperfLatencyDistributionFigures(aiperf.data, METRIC, {
      label: latencyLabel(run, METRIC),
      definition: runRequestsDefinition(run),
    })[0];
  else if (trtllm.data && source === "trtllm" && d && d.count > 1)
    figure = trtllmLatencyDistributionFigures(trtllm.data, METRIC)[0];
  const sample = source === "aiperf" ? sampleText(run.requests) : null;
  return (
    <Frame run={run} sample={sample}>
      <ChartStatus loading={query.isLoading} error={query.error} what="distribution" />
      {figure && d ? (
        <ChartFigure figure={figure} still={still} />
      ) : query.data ? (
        <p className="text-sm text-muted" data-testid="overview-chart-missing">
          {d
            ? "One request recorded time to first token: a distribution needs more than one."
            : "No successful request recorded time to first token: no distribution to draw."}
        </p>
      ) : null}
    </Frame>
  );
}

/**
 * The chart across the view's width, what it is drawn from and the way to the full Latency view
 * below it (beside it, the chart had half the width of a laptop's screen and the text the rest).
 */
function Frame({ run, sample, children }: { run: RunSummary; sample?: string | null; children: ReactNode }) {
  const [, setView] = useQueryState("view", runSearchParams.view);
  // A plain click switches the tab in place, as the tab row does (which loads the Latency view's
  // code once the page is idle, as the Overview's neighbour); the href opens a new tab.
  const open = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void setView("latency");
  };
  return (
    <section className="space-y-2" data-testid="overview-chart" aria-label="Latency at a glance">
      <div className="min-w-0">{children}</div>
      <div className="space-y-2 text-sm text-muted lg:flex lg:items-start lg:gap-4 lg:space-y-0">
        {sample ? (
          <p className="rounded border border-warn/50 px-3 py-2 text-fg" data-testid="overview-chart-sample">
            Drawn from {sample}: the records uploaded are a sample of the run aiperf summarised. The tiles
            above are aiperf&apos;s own figures, of every request.
          </p>
        ) : null}
        {runView("latency").hasData(run) ? (
          <p>
            <a
              href={`/runs/${run.id}?view=latency`}
              onClick={open}
              className="text-accent underline underline-offset-2"
              data-testid="overview-chart-link"
            >
              Open the Latency view
            </a>{" "}
            for the other latency metrics, the CDF, latency over time and the slowest requests.
          </p>
        ) : null}
      </div>
    </section>
  );
}
