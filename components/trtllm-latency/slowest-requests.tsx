"use client";

import { ApiError } from "@/lib/api/fetch-json";
import { DataTable } from "@/components/charts/data-table";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { useRunChart } from "@/components/charts/use-run-chart";
import { RequestLinkNotice } from "@/components/run/request-link-notice";
import { RequestWaterfall } from "@/components/breakdown/request-waterfall";
import {
  OpenedRequestDetail,
  RequestIdButton,
  startColumn,
  useOpenedRequest,
} from "@/components/timeline/opened-request";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { formatNumber, plural, timeUnitFor } from "@/lib/format-number";
import { trtllmRequestName, trtllmRequestTitle, trtllmRequestOwnId } from "@/lib/metrics/trtllm-request-name";
import type { TrtllmLatencyId } from "./latency-definitions";

/**
 * The ten requests with the largest server TTFT, E2E or TPOT of a TensorRT-LLM run (the metric
 * picked above), from its perf metrics, as the distribution reads them. A row's request ID opens
 * the request's waterfall below the table (the timeline's detail, by the same `req` in the URL,
 * so Back closes it). A run ingested before the list was stored says that a re-ingest lists it.
 */
export function TrtllmSlowestRequests({
  runId,
  metric,
  label,
  enabled,
}: {
  runId: string;
  metric: TrtllmLatencyId;
  label: string;
  enabled: boolean;
}) {
  const q = useRunChart(runId, TRTLLM_CHARTS.slowest, enabled);
  const rows = q.data?.lists[metric] ?? [];
  const state = useOpenedRequest(runId, (rid) => rows.some((r) => r.idx === rid));
  if (q.error instanceof ApiError && q.error.status === 404)
    return (
      <p className="text-sm text-muted" data-testid="trtllm-slowest-reingest">
        No slowest-requests list stored for this run: re-ingest it (POST /api/runs/{runId}/reingest) to list
        them.
      </p>
    );
  if (!q.data || rows.length === 0) return null;
  const ms = timeUnitFor(rows.flatMap((r) => [r.ttftMs, r.e2eMs, r.tpotMs])).format;
  const count = q.data.counts[metric];
  return (
    <div className="space-y-4">
      <DataTable
        framed
        testId="trtllm-slowest-requests"
        before={
          <p className="px-3 pt-3 text-sm font-semibold">Slowest requests by server {label.toLowerCase()}</p>
        }
        rows={rows}
        rowKey={(r) => String(r.idx)}
        definition={{
          ...TRTLLM_COMPLETED,
          method: `the server's own stamps from TensorRT-LLM perf metrics; ${rows.length < count ? `the ${rows.length} largest of the ${plural(count, "request")} that recorded it` : `every request that recorded it (${count})`}; start is seconds from the first arrival`,
        }}
        definitionNote="one time unit for the table"
        columns={[
          {
            header: (
              <span title="the disagg server's disagg_request_id when recorded, else TensorRT-LLM's request_id, else the request's position in the run">
                Request
              </span>
            ),
            className: "font-mono text-xs",
            cell: (r) => {
              const name = trtllmRequestName(r);
              return (
                <RequestIdButton
                  state={state}
                  rid={r.idx}
                  ownId={trtllmRequestOwnId(r)}
                  name={name}
                  title={trtllmRequestTitle(r)}
                  whole
                >
                  {name}
                </RequestIdButton>
              );
            },
          },
          startColumn(),
          { header: "TTFT", num: true, cell: (r) => ms(r.ttftMs) },
          { header: "E2E", num: true, cell: (r) => ms(r.e2eMs) },
          { header: "TPOT", num: true, cell: (r) => ms(r.tpotMs) },
          { header: "out tokens", num: true, cell: (r) => formatNumber(r.outputTokens, 0) },
        ]}
      />
      <RequestLinkNotice link={state.link} />
      <OpenedRequestDetail
        opened={state.opened}
        detailRef={state.detail}
        testId="trtllm-slowest-request-detail"
      >
        {(idx) => <RequestWaterfall runId={runId} idx={idx} onClose={state.close} />}
      </OpenedRequestDetail>
    </div>
  );
}
