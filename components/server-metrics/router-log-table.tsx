"use client";

import { DataTable } from "@/components/charts/data-table";
import { ROUTER_LOG_PREDICTION } from "@/components/charts/definitions";
import { formatCount, formatPoints, formatRate, NOT_EXPORTED } from "@/lib/format-number";
import type { RouterLogPayload, RouterLogWorker } from "@/lib/api/router-log";

/** The pool first (every worker the log routed to), then each worker with its own prediction. */
type Row = { kind: "pool"; p: RouterLogPayload } | { kind: "worker"; w: RouterLogWorker };

const rate = (v: number | null) => (v === null ? NOT_EXPORTED : formatRate(v));

function workerLabel(w: RouterLogWorker): string {
  const dp = w.dpRank === null ? "" : ` dp ${w.dpRank}`;
  return `worker ${w.workerId}${dp}`;
}

export function RouterLogTable({ payload }: { payload: RouterLogPayload }) {
  const rows: Row[] = [
    { kind: "pool", p: payload },
    ...payload.workers.map((w) => ({ kind: "worker" as const, w })),
  ];
  const mapped = payload.workers.some((w) => w.endpoint !== null);
  return (
    <DataTable
      framed
      testId="router-log-table"
      rows={rows}
      rowKey={(r) => (r.kind === "pool" ? "pool" : `w ${r.w.workerId} ${r.w.dpRank ?? ""}`)}
      rowAttrs={(r) => ({ "data-row": r.kind })}
      definition={{
        ...ROUTER_LOG_PREDICTION,
        method: `${ROUTER_LOG_PREDICTION.method}; gap = delivered − predicted, in percentage points`,
      }}
      definitionNote={payload.mapping}
      before={
        <p className="px-3 pt-2 text-sm font-medium">
          Router log per worker{" "}
          <span className="text-muted">— what the router predicted for each worker it chose</span>
        </p>
      }
      columns={[
        {
          header: "worker",
          cell: (r) =>
            r.kind === "pool" ? (
              <span className="font-medium">all workers in the log</span>
            ) : (
              <span className="pl-4 font-mono text-xs">
                {workerLabel(r.w)}
                {r.w.workerType ? <span className="text-muted"> ({r.w.workerType})</span> : null}
                {r.w.endpoint ? <span className="text-muted"> = {r.w.endpoint}</span> : null}
              </span>
            ),
        },
        {
          header: "routed requests",
          num: true,
          cell: (r) => formatCount(r.kind === "pool" ? r.p.decisions : r.w.requests),
        },
        {
          header: "predicted",
          num: true,
          attrs: () => ({ "data-stat": "predicted" }),
          cell: (r) => rate(r.kind === "pool" ? r.p.predicted : r.w.predicted),
        },
        {
          header: "delivered",
          num: true,
          attrs: () => ({ "data-stat": "delivered" }),
          cell: (r) =>
            r.kind === "pool" ? (
              rate(r.p.delivered)
            ) : r.w.endpoint !== null ? (
              rate(r.w.delivered)
            ) : (
              <span className="text-muted">{mapped ? NOT_EXPORTED : "not mappable"}</span>
            ),
        },
        {
          header: "gap",
          num: true,
          attrs: () => ({ "data-stat": "gap" }),
          cell: (r) => formatPoints(r.kind === "pool" ? r.p.gapPoints : r.w.gapPoints),
        },
      ]}
    />
  );
}
