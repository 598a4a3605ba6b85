"use client";

import { useQueryState } from "nuqs";
import { AgreementNotice } from "@/components/aiperf/agreement-notice";
import { ChartStatus } from "@/components/charts/chart-status";
import { LATENCY_METRIC_OPTIONS, latencyLabel } from "@/components/aiperf/latency-metric";
import { LatencyStatsTable } from "@/components/aiperf/latency-stats-table";
import { RecordsSampleLine } from "@/components/aiperf/records-sample";
import { RequestCounts } from "@/components/aiperf/request-counts";
import { SlowestRequests } from "@/components/aiperf/slowest-requests";
import { requestWords } from "@/lib/metrics/request-words";
import { TrialsNote } from "@/components/aiperf/trials-note";
import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { useRunChart } from "@/components/charts/use-run-chart";
import { ChartFigure } from "@/components/charts/chart-figure";
import { aiperfLatencyOverTimeFigure } from "@/lib/metrics/figures/latency-over-time";
import { aiperfLatencyDistributionFigures } from "@/lib/metrics/figures/latency-distribution";
import { runRequestsDefinition } from "@/lib/metrics/figures/request-definitions";
import { ttftVsInputFigure } from "@/lib/metrics/figures/ttft-vs-input";
import { aiperfTimeslicesFigure } from "@/lib/metrics/figures/timeslices";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import { useStillFigure } from "@/components/run/still-figures";
import type { RunViewProps } from "@/components/run/run-view-props";
import { runSearchParams } from "@/components/run/search-params";

import { hasAiperfAgreement } from "@/lib/api/run-views";
import { TrtllmLatencySection } from "@/components/trtllm-latency/trtllm-latency-section";
import { DrilldownNotice } from "@/components/run/drilldown-notice";
import { drilldownBuilding } from "@/lib/api/drilldown";
import { EmptyView } from "./empty-view";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

export function LatencyView({ run }: RunViewProps) {
  const [urlMetric, setMetric] = useQueryState("metric", runSearchParams.metric);
  // TPOT is TensorRT-LLM's; aiperf records open on TTFT instead.
  const metric = urlMetric === "tpotMs" ? "ttftMs" : urlMetric;
  const fromRecords = run.requests?.source === "aiperf";
  const building = drilldownBuilding(run);
  const dist = useRunChart(run.id, AIPERF_CHARTS.distribution, fromRecords);
  // The histogram and CDF come first: the two scatter charts (2,000 points each) took seconds to
  // draw and held them back when they shared a commit, so they are fetched once the distribution
  // is in and drawn after it has painted.
  const distDone = !dist.isLoading;
  const afterFirst = useAfterPaint(distDone);
  // Imported tools' files without per-request start times (SGLang, older vLLM) store no
  // latency-over-time chart: asking for it anyway was a 404 in the console.
  const untimed = run.info.requestTimeline === false;
  const overTime = useRunChart(run.id, AIPERF_CHARTS.overTime, fromRecords && distDone && !untimed);
  const ttftInput = useRunChart(run.id, AIPERF_CHARTS.ttftVsInput, fromRecords && distDone);
  // The server's drawing of the distribution (lib/runs/first-figures.ts), until the charts draw.
  const stillHistogram = useStillFigure(`latency-histogram/${metric}`);
  const stillCdf = useStillFigure(`latency-cdf/${metric}`);
  const hasSlices = run.files.some((f) => f.format === "timeslices-json" || f.format === "timeslices-csv");
  const slices = useRunChart(run.id, AIPERF_CHARTS.timeslices, hasSlices);
  const trtllm = run.timeBreakdown?.latency
    ? { ...run.timeBreakdown, latency: run.timeBreakdown.latency }
    : null;
  if (!run.requests && trtllm) {
    return (
      <TrtllmLatencySection
        runId={run.id}
        breakdown={trtllm}
        metric={urlMetric === "itlMs" ? "ttftMs" : urlMetric}
        onMetric={(m) => void setMetric(m)}
      />
    );
  }
  if (!run.requests) {
    return (
      <EmptyView title="No per-request latency in this run">
        Upload aiperf profile_export.jsonl to see latency distributions.
      </EmptyView>
    );
  }
  const words = requestWords(run);
  const label = latencyLabel(run, metric);
  const d = dist.data?.metrics[metric] ?? null;
  // An imported tool's rows are described in its words, not aiperf's; a sample of aiperf's
  // records says it is one.
  const definition = runRequestsDefinition(run);
  const [histogram, cdf] = dist.data
    ? aiperfLatencyDistributionFigures(dist.data, metric, { label, definition })
    : [null, null];
  // The distribution opens the view and the statistics table follows it: with the table first,
  // a 390 px phone showed no chart on its first screen.
  return (
    <div className="space-y-4">
      <RequestCounts requests={run.requests} words={words} />
      <TrialsNote runId={run.id} enabled={typeof run.info.trials === "number"} />
      {fromRecords ? (
        <>
          <ToggleGroup
            label="metric"
            options={LATENCY_METRIC_OPTIONS.map((o) => ({
              id: o.id,
              text: o.id === "itlMs" ? words.itl.short : o.short,
            }))}
            value={metric}
            onChange={(m) => void setMetric(m)}
          />
          <ChartStatus loading={dist.isLoading} error={dist.error} what="distribution" />
          {d && histogram && cdf ? (
            <div className="grid gap-4 lg:grid-cols-2">
              <ChartFigure figure={histogram} still={stillHistogram} />
              <ChartFigure figure={cdf} still={stillCdf} />
            </div>
          ) : dist.data ? (
            <p className="text-sm text-muted">No successful request recorded {label.toLowerCase()}.</p>
          ) : null}
          {/* Under the distribution, which opens the view (its definition line says it too). */}
          <RecordsSampleLine requests={run.requests} />
        </>
      ) : null}
      <LatencyStatsTable requests={run.requests} words={words} />
      <AgreementNotice runId={run.id} enabled={hasAiperfAgreement(run)} />
      {fromRecords ? (
        <>
          {untimed ? (
            <p className="text-sm text-muted" data-testid="no-latency-over-time">
              No latency over time: {String(run.info.benchmarkTool ?? "the benchmark tool")} wrote no
              per-request start times in this file.
            </p>
          ) : null}
          {afterFirst && overTime.data ? (
            <ChartFigure
              figure={aiperfLatencyOverTimeFigure(overTime.data, metric, {
                itlName: words.itl.short,
                definition,
              })}
            />
          ) : null}
          {afterFirst && ttftInput.data && ttftInput.data.points.length > 0 ? (
            <ChartFigure figure={ttftVsInputFigure(ttftInput.data, definition)} />
          ) : null}
          {building ? (
            <DrilldownNotice what="The slowest requests" />
          ) : (
            <SlowestRequests
              runId={run.id}
              metric={metric}
              label={label}
              enabled={afterFirst}
              timings={words.timings}
              itlShort={words.itl.short}
            />
          )}
        </>
      ) : null}
      {slices.data && slices.data.slices.length > 0 ? (
        <ChartFigure figure={aiperfTimeslicesFigure(slices.data)} />
      ) : null}
    </div>
  );
}
