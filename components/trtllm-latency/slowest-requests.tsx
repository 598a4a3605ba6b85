"use client";

import { useQueryState } from "nuqs";
import { useEffect, useRef } from "react";
import { ApiError } from "@/lib/api/fetch-json";
import { DataTable } from "@/components/charts/data-table";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { useRunChart } from "@/components/charts/use-run-chart";
import { RequestWaterfall } from "@/components/breakdown/request-waterfall";
import { runSearchParams } from "@/components/run/search-params";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { formatFixed, formatNumber, plural, timeUnitFor } from "@/lib/format-number";
import type { TrtllmLatencyId } from "./latency-definitions";

const ID_CLASS = "block max-w-[10ch] truncate sm:max-w-none";

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
  const [req, setReq] = useQueryState("req", runSearchParams.req);
  const rows = q.data?.lists[metric] ?? [];
  // Only a request of this table opens here: `req` is shared with the timeline.
  const opened = req !== null && rows.some((r) => r.idx === req) ? req : null;
  const detail = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = detail.current;
    if (opened === null || !el) return;
    el.scrollIntoView({ block: "nearest", behavior: "smooth" });
    el.focus({ preventScroll: true });
  }, [opened]);
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
              <span title="TensorRT-LLM's request_id (the disagg server's id in its title)">Request ID</span>
            ),
            className: "font-mono text-xs",
            cell: (r) => {
              const id = r.requestId ?? r.disaggRequestId ?? `#${r.idx + 1}`;
              return (
                <button
                  type="button"
                  className={`${ID_CLASS} text-left text-accent underline decoration-dotted underline-offset-2 hover:decoration-solid aria-expanded:font-semibold aria-expanded:decoration-solid`}
                  aria-expanded={opened === r.idx}
                  aria-label={`Open request ${id} in detail`}
                  title={r.disaggRequestId ? `disagg request ${r.disaggRequestId}` : undefined}
                  data-rid={r.idx}
                  onClick={() => void setReq(opened === r.idx ? null : r.idx)}
                >
                  {id}
                </button>
              );
            },
          },
          {
            header: "start",
            num: true,
            cell: (r) => (r.startS === null ? "—" : `${formatFixed(r.startS, 3)} s`),
          },
          { header: "TTFT", num: true, cell: (r) => ms(r.ttftMs) },
          { header: "E2E", num: true, cell: (r) => ms(r.e2eMs) },
          { header: "TPOT", num: true, cell: (r) => ms(r.tpotMs) },
          { header: "out tokens", num: true, cell: (r) => formatNumber(r.outputTokens, 0) },
        ]}
      />
      {opened !== null ? (
        <div ref={detail} tabIndex={-1} data-testid="trtllm-slowest-request-detail" className="scroll-mt-4">
          <RequestWaterfall runId={runId} idx={opened} onClose={() => void setReq(null)} />
        </div>
      ) : null}
    </div>
  );
}
