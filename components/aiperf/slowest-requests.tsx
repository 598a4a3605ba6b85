"use client";

import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { useEffect, useRef } from "react";
import { DataTable } from "@/components/charts/data-table";
import { AIPERF_SUCCESSFUL } from "@/components/charts/definitions";
import { fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { formatFixed, formatNumber, timeUnitFor } from "@/lib/format-number";
import { requestListSchema } from "@/lib/api/aiperf-requests";
import { timelineRequestQueryOptions } from "@/lib/api/timeline-query-options";
import { AiperfRequestPanel } from "@/components/timeline/aiperf-request-panel";
import { runSearchParams } from "@/components/run/search-params";
import type { LatencyMetricId } from "./latency-metric";

const ID_CLASS = "block max-w-[10ch] truncate sm:max-w-none";

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
  const [req, setReq] = useQueryState("req", runSearchParams.req);
  const client = useQueryClient();
  // Only an id of this table opens here: `req` is shared with the views that open a request
  // (another view's id, or a row of another metric's list, opens nothing).
  const opened = req !== null && data?.rows.some((r) => r.rid === req) ? req : null;
  // The detail sits below the table: scrolled into view and focused, so the click visibly does something.
  const detail = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = detail.current;
    if (opened === null || !el) return;
    el.scrollIntoView({ block: "nearest", behavior: "smooth" });
    el.focus({ preventScroll: true });
  }, [opened]);
  if (!data || data.rows.length === 0) return null;
  // One time unit for the whole table.
  const ms = timeUnitFor(data.rows.flatMap((r) => [r.ttftMs, r.e2eMs, r.itlMs])).format;
  const open = (rid: number) => {
    void client.prefetchQuery(timelineRequestQueryOptions(runId, rid));
    void setReq(rid === opened ? null : rid);
  };
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
            // A phone shows the id's first characters (the whole id is its title, the button's name and
            // the detail's first line), so the latencies are on screen beside it.
            cell: (r) =>
              r.rid === null ? (
                <span className={ID_CLASS} title={r.requestId ?? undefined}>
                  {r.requestId ?? "—"}
                </span>
              ) : (
                <button
                  type="button"
                  className={`${ID_CLASS} text-left text-accent underline decoration-dotted underline-offset-2 hover:decoration-solid aria-expanded:font-semibold aria-expanded:decoration-solid`}
                  aria-expanded={opened === r.rid}
                  aria-label={`Open request ${r.requestId ?? "without an id"} in detail`}
                  title={r.requestId ?? undefined}
                  data-rid={r.rid}
                  onClick={() => open(r.rid!)}
                >
                  {r.requestId ?? "open"}
                </button>
              ),
          },
          {
            header: "start",
            num: true,
            // One precision for the column: a request that started 0.4 ms in reads 0.000 s, not 0.000398 s.
            cell: (r) => (r.startS === null ? "—" : `${formatFixed(r.startS, 3)} s`),
          },
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
      {opened !== null ? (
        <div ref={detail} tabIndex={-1} data-testid="slowest-request-detail" className="scroll-mt-4">
          <AiperfRequestPanel runId={runId} rid={opened} onClose={() => void setReq(null)} />
        </div>
      ) : null}
    </div>
  );
}
