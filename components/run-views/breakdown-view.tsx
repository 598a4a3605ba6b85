"use client";

import { ChartStatus } from "@/components/charts/chart-status";
import { useQueryState } from "nuqs";
import { useMemo } from "react";
import { SegmentScopeToggle, ToggleGroup, ValueScaleToggle } from "@/components/breakdown/breakdown-controls";
import { RequestBreakdownSection } from "@/components/breakdown/request-breakdown-section";
import { useStillFigureMap } from "@/components/run/still-figures";
import { DrilldownNotice } from "@/components/run/drilldown-notice";
import { drilldownBuilding } from "@/lib/api/drilldown";
import { SegmentLegend } from "@/components/breakdown/segment-legend";
import { StepStatsTable } from "@/components/breakdown/step-stats-table";
import { useRunChart } from "@/components/charts/use-run-chart";
import { ChartFigure } from "@/components/charts/chart-figure";
import { KvTransferFigure } from "@/components/breakdown/kv-transfer-figure";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import type { RunViewProps } from "@/components/run/run-view-props";
import { runSearchParams } from "@/components/run/search-params";
import { formatRate, plural } from "@/lib/format-number";
import { segmentStatRows } from "@/lib/metrics/trtllm-chart-rows";
import { STATISTICS } from "@/lib/api/trtllm-charts";
import { EmptyView } from "./empty-view";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { kvHitRateFigure } from "@/lib/metrics/figures/breakdown";
import { segmentShareFigure, segmentStatsFigure } from "@/lib/metrics/figures/segments";
import { hasStepPhases, stepPhasesFigure } from "@/lib/metrics/figures/steps";

export function BreakdownView({ run }: RunViewProps) {
  const tb = run.timeBreakdown;
  const [stat, setStat] = useQueryState("stat", runSearchParams.stat);
  const [scope] = useQueryState("segments", runSearchParams.segments);
  const [scale] = useQueryState("scale", runSearchParams.scale);
  const stills = useStillFigureMap();
  const has = tb !== null;
  const segments = useRunChart(run.id, TRTLLM_CHARTS.segments, has);
  // The segment chart comes first; the rest of the view is fetched once its payload is in and
  // drawn after it has painted, so their rendering never holds the first chart back.
  const segmentsDone = !segments.isLoading;
  const afterFirst = useAfterPaint(segmentsDone);
  const rest = has && segmentsDone;
  const share = useRunChart(run.id, TRTLLM_CHARTS.segmentShare, rest);
  const hit = useRunChart(run.id, TRTLLM_CHARTS.kvHitRate, rest);
  const steps = useRunChart(run.id, TRTLLM_CHARTS.steps, rest);
  // The charts below the per-request bars do not depend on the statistic: kept from one
  // render to the next so a toggle redraws only the segment chart.
  const below = useMemo(
    () =>
      afterFirst ? (
        <>
          {share.data && share.data.buckets.length > 1 ? (
            <ChartFigure figure={segmentShareFigure(share.data, scope)} actions={<SegmentScopeToggle />} />
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2">
            {hit.data && hit.data.byWorker.length > 0 ? (
              <ChartFigure figure={kvHitRateFigure(hit.data)} />
            ) : null}
            <KvTransferFigure runId={run.id} />
          </div>
          {steps.data && (steps.data.steps.forwardMs || steps.data.chunks.forwardMs) ? (
            <>
              <div className="grid gap-4 lg:grid-cols-2">
                {(["steps", "chunks"] as const).map((kind) =>
                  hasStepPhases(steps.data!, kind) ? (
                    <ChartFigure key={kind} figure={stepPhasesFigure(steps.data!, kind)} />
                  ) : null,
                )}
              </div>
              <StepStatsTable payload={steps.data} />
            </>
          ) : null}
        </>
      ) : null,
    [afterFirst, share.data, hit.data, steps.data, run.id, scope],
  );
  if (!tb) {
    return (
      <EmptyView title="No time breakdown in this run">
        Upload TensorRT-LLM perf_metrics JSONL files (worker and disagg-server files) to see where each
        request&apos;s time goes.
      </EmptyView>
    );
  }
  const rows = segments.data ? segmentStatRows(segments.data, stat) : null;
  const figure = segments.data ? segmentStatsFigure(segments.data, [stat], scope, scale) : null;
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">
        {tb.mode === "disaggregated" ? "Disaggregated" : "Aggregated"} serving,{" "}
        {plural(tb.requestCount, "request")}
        {tb.kvCacheHitRate !== null
          ? `, KV-cache hit rate ${formatRate(tb.kvCacheHitRate)} (block-weighted)`
          : ""}
        . Segments that were not recorded are left out of the statistics, never counted as 0 ms.
      </p>
      {rows ? (
        <>
          <ChartFigure
            figure={figure!}
            // The server's drawing of the same figure (lib/runs/first-figures.ts), until it draws.
            still={stills[figure!.exportName]}
            scale={scale}
            actions={
              <div className="flex flex-wrap items-center gap-2">
                <ToggleGroup
                  label="statistic"
                  options={STATISTICS.map((s) => ({ id: s, text: s }))}
                  value={stat}
                  onChange={(s) => void setStat(s)}
                />
                <SegmentScopeToggle />
                <ValueScaleToggle />
              </div>
            }
          />
          <SegmentLegend rows={rows} stat={stat} />
        </>
      ) : (
        <ChartStatus loading={segments.isLoading} error={segments.error} what="segments" />
      )}
      {drilldownBuilding(run) ? (
        <DrilldownNotice what="The request list and each request's waterfall" />
      ) : (
        <RequestBreakdownSection runId={run.id} ready={segmentsDone} />
      )}
      {below}
    </div>
  );
}
