"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { memo, useCallback, useMemo } from "react";
import { ChartFigure } from "@/components/charts/chart-figure";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import { runSearchParams } from "@/components/run/search-params";
import { RequestLinkNotice } from "@/components/run/request-link-notice";
import { useRequestLink } from "@/components/run/use-request-link";
import {
  SAMPLE_SORTS,
  type RequestSample,
  type SampleSort,
  type SegmentScope,
  type ValueScale,
} from "@/lib/api/trtllm-charts";
import { requestBreakdownFigure } from "@/lib/metrics/figures/breakdown";
import { logFloor } from "@/lib/metrics/bar-labels";
import { inScope } from "@/lib/metrics/trtllm-chart-rows";
import { trtllmRequestOwnId } from "@/lib/metrics/trtllm-request-name";
import { SegmentTooltip } from "./segment-tooltip";
import { SegmentScopeToggle, ToggleGroup, ValueScaleToggle } from "./breakdown-controls";
import { requestDetailQueryOptions, requestSampleQueryOptions } from "./query-options";
import { RequestWaterfall } from "./request-waterfall";

const SORT_TEXT: Record<SampleSort, string> = { ttft: "TTFT", e2e: "end to end", arrival: "arrival" };
// 500 bars read as well as 2,000 and draw in a quarter of the time, so the first chart is not held back.
const SAMPLE_SIZE = 500;

/**
 * The log axis starts at the power of ten below the shortest bar, so every bar shows; a stack's
 * lowest band starts at 0, which a log axis cannot place, and is cut at that floor.
 */
function requestsLogFloor(sample: RequestSample, scope: SegmentScope): number {
  return logFloor(
    sample.requests.map((r) =>
      r.segments.reduce<number>(
        (total, v, i) => total + (typeof v === "number" && inScope(sample.segmentNames[i], scope) ? v : 0),
        0,
      ),
    ),
  );
}

/**
 * The per-request breakdown (lib/metrics/figures/breakdown.ts), one stacked column per sampled
 * request; clicking a column opens that request's waterfall. Memoised: its thousands of bars are
 * redrawn only when the sample, the segments shown or the axis change, never by a toggle beside
 * it (give it a stable `onSelect` and `actions`).
 */
const RequestBreakdownChart = memo(function RequestBreakdownChart({
  sample,
  scope,
  scale,
  onSelect,
  actions,
}: {
  sample: RequestSample;
  scope: SegmentScope;
  scale: ValueScale;
  onSelect: (request: RequestSample["requests"][number]) => void;
  actions?: React.ReactNode;
}) {
  const figure = useMemo(() => requestBreakdownFigure(sample, scope, scale), [sample, scope, scale]);
  const segments = useMemo(() => figure.series.map((s) => ({ key: s.key, name: s.name })), [figure]);
  const y = useMemo(
    () =>
      scale === "log"
        ? { log: true, domain: [requestsLogFloor(sample, scope), "auto"] as [number, "auto"] }
        : undefined,
    [sample, scope, scale],
  );
  return (
    <ChartFigure
      figure={figure}
      interaction="Click a bar for its waterfall"
      actions={actions}
      onRowClick={(i) => onSelect(sample.requests[i])}
      tooltip={{ content: <SegmentTooltip segments={segments} title={(r) => String(r.x)} /> }}
      y={y}
    />
  );
});

/**
 * Per-request stacked bars (sorted by the URL's `sort`, segments per `segments`, axis per `scale`)
 * and the selected request (`rid`, or `req` for one without an id). The sample is fetched once `ready` (the view's first chart has
 * its data) and drawn after that chart has painted: its thousands of bar rectangles took seconds
 * to render and used to hold the first chart back when they shared its commit.
 */
export function RequestBreakdownSection({ runId, ready }: { runId: string; ready: boolean }) {
  const [sort, setSort] = useQueryState("sort", runSearchParams.sort);
  const [scope] = useQueryState("segments", runSearchParams.segments);
  const [scale] = useQueryState("scale", runSearchParams.scale);
  const link = useRequestLink(runId);
  // Slowest first for latencies, earliest first for arrival.
  const order = sort === "arrival" ? "asc" : "desc";
  // A new sort keeps the bars of the last one on screen until its sample is in.
  const q = useQuery({
    ...requestSampleQueryOptions(runId, sort, order, SAMPLE_SIZE),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const draw = useAfterPaint(ready && q.data !== undefined);
  const client = useQueryClient();
  // The drill-down's fetch starts on the click itself, not after the render that shows its frame.
  const { open: openLink } = link;
  const open = useCallback(
    (r: RequestSample["requests"][number]) => {
      void client.prefetchQuery(requestDetailQueryOptions(runId, r.idx));
      openLink(r.idx, trtllmRequestOwnId(r));
    },
    [client, runId, openLink],
  );
  const actions = useMemo(
    () => (
      <>
        <ToggleGroup
          label="sort requests by"
          options={SAMPLE_SORTS.map((s) => ({ id: s, text: SORT_TEXT[s] }))}
          value={sort}
          onChange={(s) => void setSort(s)}
        />
        <SegmentScopeToggle />
        <ValueScaleToggle />
      </>
    ),
    [sort, setSort],
  );
  return (
    <div className="space-y-4">
      {!q.error && !(draw && q.data) ? <p className="text-sm text-muted">Loading requests…</p> : null}
      {draw && q.data ? (
        <RequestBreakdownChart
          sample={q.data}
          scope={scope}
          scale={scale}
          onSelect={open}
          actions={actions}
        />
      ) : null}
      <RequestLinkNotice link={link} />
      {link.position !== null ? (
        <RequestWaterfall runId={runId} idx={link.position} onClose={link.close} />
      ) : null}
    </div>
  );
}
