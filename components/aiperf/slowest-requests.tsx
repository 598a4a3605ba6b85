"use client";

import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { DataTable } from "@/components/charts/data-table";
import { AIPERF_SUCCESSFUL } from "@/components/charts/definitions";
import { fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { formatNumber, timeUnitFor } from "@/lib/format-number";
import { requestListSchema } from "@/lib/api/aiperf-requests";
import { timelineRequestQueryOptions } from "@/lib/api/timeline-query-options";
import { RequestLinkNotice } from "@/components/run/request-link-notice";
import { AiperfRequestPanel } from "@/components/timeline/aiperf-request-panel";
import {
  OpenedRequestDetail,
  REQUEST_ID_CLASS,
  RequestIdButton,
  startColumn,
  useOpenedRequest,
} from "@/components/timeline/opened-request";
import type { LatencyMetricId } from "./latency-metric";

const SORT: Record<LatencyMetricId, "ttft" | "e2e" | "itl"> = { ttftMs: "ttft", e2eMs: "e2e", itlMs: "itl" };

function slowestQuery(runId: string, sort: string) {
  return queryOptions({
    queryKey: queryKeys.aiperfRequests(runId, sort),
    queryFn: () =>
      fetchJson(
        `/api/runs/${encodeURIComponent(runId)}/aiperf/requests?sort=${sort}&order=desc&limit=10`,
        requestListSchema,
      ),
    staleTime: Infinity,
  });
}

/**
 * The ten slowest requests by the picked metric, with aiperf's x_request_id to find them in server
 * logs. `enabled` holds the fetch back until the view's first chart has its data: on a run ingested
 * before the lists were stored, this query sorts the run's rows and the server answers nothing else.
 * A row's request ID is a button that opens the request's detail below the table (the timeline's,
 * by the same id, in the URL's `req`, so Back closes it); a list stored before rows carried their
 * ids says once that a re-ingest makes them open, and its rows stay plain.
 */
export function SlowestRequests({
  runId,
  metric,
  label,
  enabled,
  timings = "client-side timings from aiperf's records",
  itlShort = "ITL",
}: {
  runId: string;
  metric: LatencyMetricId;
  label: string;
  enabled: boolean;
  /** How the timings were taken, in the producer's words */
  timings?: string;
  /** The producer's short name of the itlMs column (an imported tool's TPOT) */
  itlShort?: string;
}) {
  const { data } = useQuery({ ...slowestQuery(runId, SORT[metric]), enabled });
  const client = useQueryClient();
  const state = useOpenedRequest(runId, (rid) => data?.rows.some((r) => r.rid === rid) ?? false);
  if (!data || data.rows.length === 0) return null;
  // One time unit for the whole table.
  const ms = timeUnitFor(data.rows.flatMap((r) => [r.ttftMs, r.e2eMs, r.itlMs])).format;
  return (
    <div className="space-y-4">
      <DataTable
        framed
        testId="slowest-requests"
        before={
          <div className="space-y-1 px-3 pt-3">
            <p className="text-sm font-semibold">Slowest requests by {label.toLowerCase()}</p>
            {data.reingestToOpen ? (
              <p className="text-xs text-muted" data-testid="slowest-reingest">
                Stored before rows carried their ids: re-ingest the run (POST /api/runs/{runId}/reingest) to
                open a request from this table.
              </p>
            ) : null}
          </div>
        }
        rows={data.rows}
        rowKey={(r, i) => `${r.requestId}-${i}`}
        definition={{
          ...AIPERF_SUCCESSFUL,
          method: `${timings}, the ten largest ${label.toLowerCase()} values; start is seconds from the first request`,
        }}
        definitionNote="one time unit for the table"
        columns={[
          {
            // aiperf's x_request_id, as the server logged it: the column says what it is for.
            header: <span title="aiperf's x_request_id, as sent to the server">Request ID</span>,
            className: "font-mono text-xs",
            cell: (r) =>
              r.rid === null ? (
                <span className={REQUEST_ID_CLASS} title={r.requestId ?? undefined}>
                  {r.requestId ?? "—"}
                </span>
              ) : (
                <RequestIdButton
                  state={state}
                  rid={r.rid}
                  ownId={r.requestId}
                  name={r.requestId ?? "without an id"}
                  title={r.requestId ?? undefined}
                  onOpen={() => void client.prefetchQuery(timelineRequestQueryOptions(runId, r.rid!))}
                >
                  {r.requestId ?? "open"}
                </RequestIdButton>
              ),
          },
          startColumn(),
          { header: "TTFT", num: true, cell: (r) => ms(r.ttftMs) },
          { header: "end-to-end", num: true, cell: (r) => ms(r.e2eMs) },
          { header: itlShort, num: true, cell: (r) => ms(r.itlMs) },
          {
            header: "in / out tokens",
            num: true,
            cell: (r) => `${formatNumber(r.inputTokens, 0)} / ${formatNumber(r.outputTokens, 0)}`,
          },
        ]}
      />
      {/* A run with TensorRT-LLM requests opens theirs (its aiperf rows carry no rid): their list says it. */}
      {data.rows.some((r) => r.rid !== null) ? <RequestLinkNotice link={state.link} /> : null}
      <OpenedRequestDetail opened={state.opened} detailRef={state.detail} testId="slowest-request-detail">
        {(rid) => <AiperfRequestPanel runId={runId} rid={rid} onClose={state.close} />}
      </OpenedRequestDetail>
    </div>
  );
}
