"use client";

import { DataTable } from "@/components/charts/data-table";
import { ROUTER_LOG_PREDICTION } from "@/components/charts/definitions";
import { formatCount, formatPoints, formatRate, NOT_EXPORTED } from "@/lib/format-number";
import type { RouterLogOtherWorkers, RouterLogPayload, RouterLogWorker } from "@/lib/api/router-log";

/**
 * The pool first (every worker the log routed to), then each worker with its own prediction, at
 * most ROUTER_LOG_MAX_WORKERS of them, then the other workers in one row.
 */
type Row =
  | { kind: "pool"; p: RouterLogPayload }
  | { kind: "worker"; w: RouterLogWorker }
  | { kind: "other"; o: RouterLogOtherWorkers };

const rate = (v: number | null) => (v === null ? NOT_EXPORTED : formatRate(v));

function workerLabel(w: RouterLogWorker): string {
  const dp = w.dpRank === null ? "" : ` dp ${w.dpRank}`;
  return `worker ${w.workerId}${dp}`;
}

export function RouterLogTable({ payload }: { payload: RouterLogPayload }) {
  const { workers: shown, otherWorkers: other } = payload;
  const rows: Row[] = [
    { kind: "pool", p: payload },
    ...shown.map((w) => ({ kind: "worker" as const, w })),
    ...(other ? [{ kind: "other" as const, o: other }] : []),
  ];
  const mapped = shown.some((w) => w.endpoint !== null);
  const bounded = other
    ? ` The ${shown.length} workers with most routed requests are listed; the other ${formatCount(other.count)} workers are one row.`
    : "";
  return (
    <DataTable
      framed
      testId="router-log-table"
      rows={rows}
      rowKey={(r) => (r.kind === "worker" ? `w ${r.w.workerId} ${r.w.dpRank ?? ""}` : r.kind)}
      rowAttrs={(r) => ({ "data-row": r.kind })}
      definition={{
        ...ROUTER_LOG_PREDICTION,
        method: `${ROUTER_LOG_PREDICTION.method}; gap = delivered − predicted, in percentage points`,
      }}
      definitionNote={`${payload.mapping}${bounded}`}
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
            ) : r.kind === "other" ? (
              <span className="pl-4 text-xs" data-testid="router-log-other-workers">
                {formatCount(r.o.count)} other workers
              </span>
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
          cell: (r) =>
            formatCount(r.kind === "pool" ? r.p.decisions : r.kind === "other" ? r.o.requests : r.w.requests),
        },
        {
          header: "predicted",
          num: true,
          attrs: () => ({ "data-stat": "predicted" }),
          cell: (r) =>
            rate(r.kind === "pool" ? r.p.predicted : r.kind === "other" ? r.o.predicted : r.w.predicted),
        },
        {
          header: "delivered",
          num: true,
          attrs: () => ({ "data-stat": "delivered" }),
          cell: (r) =>
            r.kind === "pool" ? (
              rate(r.p.delivered)
            ) : r.kind === "other" ? (
              <span className="text-muted">{mapped ? NOT_EXPORTED : "not mappable"}</span>
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
          cell: (r) =>
            formatPoints(r.kind === "pool" ? r.p.gapPoints : r.kind === "other" ? null : r.w.gapPoints),
        },
      ]}
    />
  );
}
