"use client";

import { useQuery } from "@tanstack/react-query";
import { ChartAreaWaterfallSteps } from "@/components/charts/chart-area-waterfall-steps";
import { ChartBarWaterfallRequest } from "@/components/charts/chart-bar-waterfall-request";
import { trtllmRequestTitle } from "@/lib/metrics/trtllm-request-name";
import { RequestDetailFrame } from "@/components/request-detail/request-detail-frame";
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
    <RequestDetailFrame
      title={q.data ? trtllmRequestTitle(q.data) : undefined}
      label="request waterfall"
      loading={q.isLoading}
      failed={!!q.error}
      onClose={onClose}
    >
      {q.data ? (
        <>
          <ChartBarWaterfallRequest detail={q.data} />
          <ChartAreaWaterfallSteps detail={q.data} />
          <RequestFacts detail={q.data} />
          <RequestStepsTable detail={q.data} />
        </>
      ) : null}
    </RequestDetailFrame>
  );
}
