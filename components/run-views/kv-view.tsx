"use client";

import { ChartFigure } from "@/components/charts/chart-figure";
import type { RunViewProps } from "@/components/run/run-view-props";
import { EndpointChoiceRow } from "@/components/server-metrics/endpoint-picker";
import { FactsList } from "@/components/server-metrics/facts-list";
import { orNotExported } from "@/components/server-metrics/not-exported";
import { ChartStatus } from "@/components/charts/chart-status";
import { useStillFigure } from "@/components/run/still-figures";
import { useSmData } from "@/components/server-metrics/use-sm-chart";
import { formatCount, formatRate } from "@/lib/format-number";
import { hasField } from "@/lib/metrics/server-metrics/chart-rows";
import { hasKvData } from "@/lib/api/run-views";
import { endpointCapacityFigure, endpointUsageFigure } from "@/lib/metrics/figures/endpoints";
import { smSeriesFigure } from "@/lib/metrics/figures/server-series";
import { ManifestEmptyView } from "./empty-view";

export function KvView({ run }: RunViewProps) {
  const sm = run.serverMetrics;
  const { endpoints, series } = useSmData(run.id, sm !== null);
  // The server's drawing of the KV capacity per endpoint (lib/runs/first-figures.ts), until the chart draws.
  const still = useStillFigure("endpoint-kv-capacity");
  if (!sm || !hasKvData(run)) return <ManifestEmptyView id="kv" title="No KV cache metrics in this run" />;
  const d = endpoints.data;
  const s = series.data;
  const source = run.info.kvCapacitySource;
  const capacity = sm.kvCache.gpuTotalTokens;
  // Why it is unknown, when ingest could tell (e.g. aiperf's JSONL export has no _info families).
  const capacityWarning = run.warnings.find((w) => w.includes("KV capacity unknown"));
  return (
    <div className="space-y-4">
      <FactsList
        testId="kv-facts"
        items={[
          ["KV capacity", capacity === null ? "unknown (see below)" : `${formatCount(capacity)} tokens`],
          ["usage mean", orNotExported(sm.kvCache.gpuUsageAvg, "kvUsage", formatRate)],
          ["usage peak", orNotExported(sm.kvCache.gpuUsageMax, "kvUsage", formatRate)],
          ...(typeof source === "string" ? ([["capacity from", source]] as [string, string][]) : []),
        ]}
      />
      <p className="text-xs text-muted">
        Capacity is summed per pool: each endpoint&apos;s blocks × its own block size; tensor-parallel ranks
        of one pool count once. Usage mean is weighted by capacity when every endpoint&apos;s capacity is
        known; the peak is the highest sample of any endpoint.
      </p>
      {capacity === null ? (
        <p className="text-xs text-muted" data-testid="kv-capacity-missing">
          {capacityWarning ??
            "KV capacity is not in these files: upload the engine's cache-config metrics (aiperf's JSON or CSV server-metrics export) or its server log."}
        </p>
      ) : null}
      <ChartStatus loading={endpoints.isLoading} error={endpoints.error} what="per-endpoint KV metrics" />
      {d ? (
        <>
          <EndpointChoiceRow
            payload={d}
            roles={d.rows
              .filter((r) => r.kvCapacityTokens !== null || r.kvUsageAvg !== null)
              .map((r) => r.role)}
          />
          {d.rows.some((r) => r.kvCapacityTokens !== null) ? (
            <ChartFigure figure={endpointCapacityFigure(d.rows)} still={still} />
          ) : null}
          {d.rows.some((r) => r.kvUsageAvg !== null) ? (
            <ChartFigure figure={endpointUsageFigure(d.rows)} />
          ) : null}
          <ChartStatus loading={series.isLoading} error={series.error} what="KV time series" />
          {s ? (
            <div className="grid gap-4 lg:grid-cols-2">
              {hasField(s, "kvUsage") ? <ChartFigure figure={smSeriesFigure(s, "kvUsage")} /> : null}
              {hasField(s, "running") || hasField(s, "waiting") ? (
                <ChartFigure figure={smSeriesFigure(s, "queue")} />
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
