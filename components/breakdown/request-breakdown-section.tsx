"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { ChartBarBreakdownRequests } from "@/components/charts/chart-bar-breakdown-requests";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import { runSearchParams } from "@/components/run/search-params";
import { SAMPLE_SORTS, VALUE_SCALES, type SampleSort } from "@/lib/api/trtllm-charts";
import { SCOPE_OPTIONS, ToggleGroup } from "./breakdown-controls";
import { requestSampleQueryOptions } from "./query-options";
import { RequestWaterfall } from "./request-waterfall";

const SORT_TEXT: Record<SampleSort, string> = { ttft: "TTFT", e2e: "end to end", arrival: "arrival" };
// 500 bars read as well as 2,000 and draw in a quarter of the time, so the first chart is not held back.
const SAMPLE_SIZE = 500;

/**
 * Per-request stacked bars (sorted by the URL's `sort`, segments per `segments`, axis per `scale`)
 * and the selected request (`req`). The sample is fetched once `ready` (the view's first chart has
 * its data) and drawn after that chart has painted: its thousands of bar rectangles took seconds
 * to render and used to hold the first chart back when they shared its commit.
 */
export function RequestBreakdownSection({ runId, ready }: { runId: string; ready: boolean }) {
  const [sort, setSort] = useQueryState("sort", runSearchParams.sort);
  const [scope, setScope] = useQueryState("segments", runSearchParams.segments);
  const [scale, setScale] = useQueryState("scale", runSearchParams.scale);
  const [req, setReq] = useQueryState("req", runSearchParams.req);
  // Slowest first for latencies, earliest first for arrival.
  const order = sort === "arrival" ? "asc" : "desc";
  const q = useQuery({ ...requestSampleQueryOptions(runId, sort, order, SAMPLE_SIZE), enabled: ready });
  const draw = useAfterPaint(ready && q.data !== undefined);
  return (
    <div className="space-y-4">
      {!q.error && !(draw && q.data) ? <p className="text-sm text-muted">Loading requests…</p> : null}
      {draw && q.data ? (
        <ChartBarBreakdownRequests
          sample={q.data}
          scope={scope}
          scale={scale}
          onSelect={(idx) => void setReq(idx)}
          actions={
            <>
              <ToggleGroup
                label="sort requests by"
                options={SAMPLE_SORTS.map((s) => ({ id: s, text: SORT_TEXT[s] }))}
                value={sort}
                onChange={(s) => void setSort(s)}
              />
              <ToggleGroup
                label="segments shown"
                options={SCOPE_OPTIONS}
                value={scope}
                onChange={(s) => void setScope(s)}
              />
              <ToggleGroup
                label="time axis"
                options={VALUE_SCALES.map((s) => ({ id: s, text: s }))}
                value={scale}
                onChange={(s) => void setScale(s)}
              />
            </>
          }
        />
      ) : null}
      {req !== null ? <RequestWaterfall runId={runId} idx={req} onClose={() => void setReq(null)} /> : null}
    </div>
  );
}
