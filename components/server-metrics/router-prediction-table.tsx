"use client";

import { DataTable } from "@/components/charts/data-table";
import { ROUTER_PREDICTION } from "@/components/charts/definitions";
import { formatCount, formatPoints, formatRate, NOT_EXPORTED } from "@/lib/format-number";
import type { RouterPool, RouterPoolEndpoint } from "@/lib/api/router-prediction";

/** A pool row, then one row per engine endpoint of it (delivered only: the router names no worker). */
type Row =
  { kind: "pool"; pool: RouterPool } | { kind: "endpoint"; pool: RouterPool | null; ep: RouterPoolEndpoint };

const rate = (v: number | null) => (v === null ? NOT_EXPORTED : formatRate(v));

function rowsOf(pools: RouterPool[], unmatched: RouterPoolEndpoint[]): Row[] {
  const rows: Row[] = [];
  for (const pool of pools) {
    rows.push({ kind: "pool", pool });
    for (const ep of pool.endpoints) rows.push({ kind: "endpoint", pool, ep });
  }
  for (const ep of unmatched) rows.push({ kind: "endpoint", pool: null, ep });
  return rows;
}

/** Per pool: predicted, delivered and the gap in points; each worker's own delivered rate under it. */
export function RouterPredictionTable({
  pools,
  unmatched,
}: {
  pools: RouterPool[];
  unmatched: RouterPoolEndpoint[];
}) {
  const rows = rowsOf(pools, unmatched);
  return (
    <DataTable
      framed
      testId="router-prediction-table"
      rows={rows}
      rowKey={(r) => (r.kind === "pool" ? `pool ${r.pool.id}` : `ep ${r.pool?.id ?? "-"} ${r.ep.endpoint}`)}
      rowAttrs={(r) => ({ "data-row": r.kind })}
      definition={{
        ...ROUTER_PREDICTION,
        window: "profiling phase of each endpoint (see the Endpoints table)",
        method: `${ROUTER_PREDICTION.method}; gap = delivered − predicted, in percentage points`,
      }}
      definitionNote="the router's metrics name the worker pool, not the worker each request went to, so a worker has no prediction of its own"
      before={
        <p className="px-3 pt-2 text-sm font-medium">
          Router predicted vs delivered{" "}
          <span className="text-muted">— per worker pool, with each worker&apos;s own delivered rate</span>
        </p>
      }
      columns={[
        {
          header: "pool / endpoint",
          cell: (r) =>
            r.kind === "pool" ? (
              <span className="font-medium">{r.pool.label}</span>
            ) : (
              <span className="pl-4">
                {r.ep.endpoint}
                {r.pool === null ? <span className="text-muted"> (no router pool)</span> : null}
              </span>
            ),
        },
        {
          header: "routed requests",
          num: true,
          cell: (r) => (r.kind === "pool" ? formatCount(r.pool.requests) : ""),
        },
        {
          header: "predicted",
          num: true,
          attrs: () => ({ "data-stat": "predicted" }),
          cell: (r) =>
            r.kind === "pool" ? rate(r.pool.predicted) : <span className="text-muted">per pool only</span>,
        },
        {
          header: "delivered",
          num: true,
          attrs: () => ({ "data-stat": "delivered" }),
          cell: (r) =>
            r.kind === "pool" ? (
              r.pool.delivered === null ? (
                "not matched"
              ) : (
                formatRate(r.pool.delivered)
              )
            ) : r.ep.delivered === null ? (
              <span className="text-muted">{r.ep.deliveredMethod ?? NOT_EXPORTED}</span>
            ) : (
              formatRate(r.ep.delivered)
            ),
        },
        {
          header: "gap",
          num: true,
          attrs: () => ({ "data-stat": "gap" }),
          cell: (r) => (r.kind === "pool" ? formatPoints(r.pool.gapPoints) : ""),
        },
      ]}
    />
  );
}
