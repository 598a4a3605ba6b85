"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { formatMs, formatNumber } from "@/lib/format-number";
import { requestListSchema } from "@/lib/api/aiperf-requests";
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
 */
export function SlowestRequests({
  runId,
  metric,
  label,
  enabled,
}: {
  runId: string;
  metric: LatencyMetricId;
  label: string;
  enabled: boolean;
}) {
  const { data } = useQuery({ ...slowestQuery(runId, SORT[metric]), enabled });
  if (!data || data.rows.length === 0) return null;
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <p className="px-3 pt-3 text-sm font-semibold">Slowest requests by {label.toLowerCase()}</p>
      <table className="table-base" data-testid="slowest-requests">
        <thead>
          <tr>
            <th>x_request_id</th>
            <th className="num">start</th>
            <th className="num">TTFT</th>
            <th className="num">end-to-end</th>
            <th className="num">ITL</th>
            <th className="num">in / out tokens</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r, i) => (
            <tr key={`${r.requestId}-${i}`}>
              <td className="font-mono text-xs">{r.requestId ?? "—"}</td>
              <td className="num">{r.startS === null ? "—" : `${r.startS.toFixed(3)} s`}</td>
              <td className="num">{formatMs(r.ttftMs)}</td>
              <td className="num">{formatMs(r.e2eMs)}</td>
              <td className="num">{formatMs(r.itlMs)}</td>
              <td className="num">
                {formatNumber(r.inputTokens, 0)} / {formatNumber(r.outputTokens, 0)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
