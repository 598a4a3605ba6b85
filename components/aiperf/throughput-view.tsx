"use client";

import type { RunViewProps } from "@/components/run/run-view-props";
import { EmptyView } from "@/components/run-views/empty-view";
import { RecordsSampleLine } from "@/components/aiperf/records-sample";
import { ChartFigure } from "@/components/charts/chart-figure";
import { aiperfErrorsFigure, errorsDenominator } from "@/lib/metrics/figures/errors";
import { aiperfInFlightFigure, aiperfThroughputFigure } from "@/lib/metrics/figures/timeline";
import { ChartStatus } from "@/components/charts/chart-status";
import { ErrorExamples } from "./error-examples";
import { useRunChart } from "@/components/charts/use-run-chart";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/** Throughput and in-flight concurrency over time, and the run's errors by type. */
export function ThroughputView({ run }: RunViewProps) {
  const fromRecords = run.requests?.source === "aiperf";
  // Imported tools' files without per-request start times (SGLang, older vLLM) have no timeline.
  const untimed = run.info.requestTimeline === false;
  const timeline = useRunChart(run.id, AIPERF_CHARTS.timeline, fromRecords && !untimed);
  const errors = useRunChart(run.id, AIPERF_CHARTS.errors, fromRecords);
  if (!fromRecords) {
    return (
      <EmptyView title="No per-request records in this run">
        Upload aiperf profile_export.jsonl to see throughput, concurrency and errors over time.
      </EmptyView>
    );
  }
  return (
    <div className="space-y-4">
      <RecordsSampleLine requests={run.requests} />
      {untimed ? (
        <p className="text-sm text-muted" data-testid="no-timeline">
          No throughput or concurrency over time: {String(run.info.benchmarkTool ?? "the benchmark tool")}{" "}
          wrote no per-request start times in this file (current vLLM writes them with --save-detailed).
        </p>
      ) : (
        <ChartStatus loading={timeline.isLoading} error={timeline.error} what="timeline" />
      )}
      {timeline.data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <ChartFigure figure={aiperfThroughputFigure(timeline.data)} />
          <ChartFigure figure={aiperfInFlightFigure(timeline.data)} />
        </div>
      ) : null}
      {errors.data && errors.data.groups.length > 0 ? (
        <>
          <ChartFigure figure={aiperfErrorsFigure(errors.data, errorsDenominator(run.requests))} />
          <ErrorExamples data={errors.data} />
        </>
      ) : errors.data ? (
        <p className="text-sm text-muted" data-testid="no-errors">
          No failed profiling requests.
        </p>
      ) : null}
    </div>
  );
}
