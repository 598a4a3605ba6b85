"use client";

import { ChartLineRouterLog } from "@/components/charts/chart-line-router-log";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { RouterLogTable } from "@/components/server-metrics/router-log-table";
import { formatCount } from "@/lib/format-number";
import { type RouterLogPayload } from "@/lib/api/router-log";
import { ROUTER_LOG_CHART } from "@/lib/api/chart-catalog";

/** What was left out of the comparison, in one line (nothing when nothing was). */
function leftOut(p: RouterLogPayload): string | null {
  const parts: string[] = [];
  if (p.outsideWindow > 0)
    parts.push(`${formatCount(p.outsideWindow)} outside the scrapes' window (warmup, or after the run)`);
  if (p.decodeDecisions > 0)
    parts.push(`${formatCount(p.decodeDecisions)} to decode workers, whose cache holds KV sent by prefill`);
  if (p.untimed > 0) parts.push(`${formatCount(p.untimed)} on lines with no time (counted, on no interval)`);
  return parts.length > 0 ? `Routing decisions left out: ${parts.join("; ")}.` : null;
}

/**
 * The router's own decisions, from the frontend's log: per worker, what it predicted, and over
 * time beside the engines' counters. Stored only for runs whose upload has a router log.
 */
export function RouterLogSection({ runId, enabled }: { runId: string; enabled: boolean }) {
  const q = useRunChart(runId, enabled ? ROUTER_LOG_CHART : null);
  if (!enabled) return null;
  const p = q.data;
  const note = p ? leftOut(p) : null;
  return (
    <section className="space-y-3" data-testid="router-log">
      <h3 className="text-sm font-semibold">KV router log: predicted per worker vs delivered</h3>
      <ChartStatus loading={q.isLoading} error={q.error} what="router log" />
      {p?.missing ? (
        <p className="text-sm text-muted" data-testid="router-log-missing">
          {p.missing}
        </p>
      ) : null}
      {p ? (
        <p className="text-xs text-muted" data-testid="router-log-sources">
          Predicted from {p.files.join(", ")}: {p.source}.{" "}
          {p.delivered !== null
            ? `Delivered from the prefill-side engines' own counters (${p.deliveredMethod}). `
            : ""}
          {p.mapping}
        </p>
      ) : null}
      {note ? <p className="text-xs text-muted">{note}</p> : null}
      {p && p.points.length > 0 ? <ChartLineRouterLog payload={p} /> : null}
      {p && p.workers.length > 0 ? <RouterLogTable payload={p} /> : null}
    </section>
  );
}
