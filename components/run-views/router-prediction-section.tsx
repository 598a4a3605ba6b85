"use client";

import { ChartLineRouterPrediction } from "@/components/charts/chart-line-router-prediction";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { RouterPredictionTable } from "@/components/server-metrics/router-prediction-table";

import { SM_CHARTS } from "@/lib/api/chart-catalog";

/**
 * The KV-aware router's predicted hit rate beside what the engines delivered. Stored only for
 * runs with router metrics or a Dynamo frontend; a run without either has no such section.
 */
export function RouterPredictionSection({ runId, enabled }: { runId: string; enabled: boolean }) {
  const q = useRunChart(runId, enabled ? SM_CHARTS.router : null);
  if (!enabled) return null;
  const p = q.data;
  return (
    <section className="space-y-3" data-testid="router-prediction">
      <h3 className="text-sm font-semibold">KV-aware router: predicted vs delivered</h3>
      <ChartStatus loading={q.isLoading} error={q.error} what="router prediction" />
      {p?.missing ? (
        <p className="text-sm text-muted" data-testid="router-missing">
          {p.missing}
        </p>
      ) : null}
      {p
        ? p.pools
            .filter((pool) => pool.note)
            .map((pool) => (
              <p key={pool.id} className="text-xs text-muted">
                {pool.label}: {pool.note}
              </p>
            ))
        : null}
      {p && p.pools.length > 0 ? (
        <p className="text-xs text-muted" data-testid="router-sources">
          Predicted from {[...new Set(p.pools.map((pool) => pool.source))].join("; ")}. Delivered from the
          engines&apos; own prefix-cache counters (
          {[...new Set(p.pools.map((pool) => pool.deliveredMethod ?? "none matched"))].join("; ")}).
        </p>
      ) : null}
      {p && p.series.length > 0 ? <ChartLineRouterPrediction payload={p} /> : null}
      {p && p.pools.length > 0 ? <RouterPredictionTable pools={p.pools} unmatched={p.unmatched} /> : null}
    </section>
  );
}
