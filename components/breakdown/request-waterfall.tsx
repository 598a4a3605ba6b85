"use client";

import { useQuery } from "@tanstack/react-query";
import { ChartAreaWaterfallSteps } from "@/components/charts/chart-area-waterfall-steps";
import { ChartBarWaterfallRequest } from "@/components/charts/chart-bar-waterfall-request";
import { requestDetailQueryOptions } from "./query-options";
import { RequestFacts } from "./request-facts";
import { RequestStepsTable } from "./request-steps-table";

/** The drill-down of one request: waterfall, timestamps, KV numbers, steps. */
export function RequestWaterfall({
  runId,
  idx,
  onClose,
}: {
  runId: string;
  idx: number;
  onClose: () => void;
}) {
  const q = useQuery(requestDetailQueryOptions(runId, idx));
  return (
    <section className="space-y-3 rounded-lg border border-accent/40 p-3" aria-label="request waterfall">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold">Request detail</h3>
        <button type="button" className="btn-ghost text-xs" onClick={onClose}>
          Close
        </button>
      </div>
      {q.isLoading ? <p className="text-sm text-muted">Loading request…</p> : null}
      {q.error ? <p className="text-sm text-muted">This request could not be loaded.</p> : null}
      {q.data ? (
        <>
          <ChartBarWaterfallRequest detail={q.data} />
          <ChartAreaWaterfallSteps detail={q.data} />
          <RequestFacts detail={q.data} />
          <RequestStepsTable detail={q.data} />
        </>
      ) : null}
    </section>
  );
}
