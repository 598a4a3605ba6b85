"use client";

import type { ReactNode } from "react";
import { ChartAreaPromptTokens } from "@/components/charts/chart-area-prompt-tokens";
import { ChartFigure } from "@/components/charts/chart-figure";
import type { RunViewProps } from "@/components/run/run-view-props";
import { EndpointChoiceRow } from "@/components/server-metrics/endpoint-picker";
import { FactsList } from "@/components/server-metrics/facts-list";
import { NotExported, orNotExported } from "@/components/server-metrics/not-exported";
import { ChartStatus } from "@/components/charts/chart-status";
import { useStillFigure } from "@/components/run/still-figures";
import { useSmData } from "@/components/server-metrics/use-sm-chart";
import { formatCount, formatRate } from "@/lib/format-number";
import { cacheFacts, endpointHitRateMissing } from "@/lib/metrics/server-metrics/cache-facts";
import { hasField } from "@/lib/metrics/server-metrics/chart-rows";
import { hasCacheData } from "@/lib/api/run-views";
import { endpointHitRateFigure } from "@/lib/metrics/figures/endpoints";
import { smSeriesFigure } from "@/lib/metrics/figures/server-series";
import { ManifestEmptyView } from "./empty-view";
import { RouterLogSection } from "./router-log-section";
import { ReuseLedgerSection } from "./reuse-ledger-section";
import { RouterPredictionSection } from "./router-prediction-section";

export function CacheView({ run }: RunViewProps) {
  const sm = run.serverMetrics;
  const { endpoints, series } = useSmData(run.id, sm !== null);
  // The server's drawing of the hit rate per endpoint (lib/runs/first-figures.ts), until the chart draws.
  const still = useStillFigure("endpoint-hit-rate");
  const requestLevel = run.timeBreakdown?.kvCacheHitRate ?? null;
  const theoretical =
    typeof run.info.theoreticalCacheHitRate === "number" ? run.info.theoreticalCacheHitRate : null;
  if (!hasCacheData(run)) return <ManifestEmptyView id="cache" title="No cache metrics in this run" />;
  const perEndpointRequestLevel = run.endpoints.filter((e) => e.kvCacheHitRate !== null);
  const facts: [string, ReactNode][] = [];
  if (sm) {
    for (const f of cacheFacts(sm.cache, run.info))
      facts.push([
        f.label,
        <span key={f.label} title={f.definition}>
          {f.text ?? <NotExported what="hitRate" />}
        </span>,
      ]);
    if (sm.cache.gpuHitRate !== null || sm.cache.overallHitRate !== null || sm.cache.lookupTokens != null) {
      facts.push(["prompt tokens", orNotExported(sm.tokens.promptTotal, "promptTokens", formatCount)]);
      facts.push(["GPU-cached tokens", orNotExported(sm.tokens.cachedTotal, "cachedTokens", formatCount)]);
    }
  }
  const blockLookups = run.timeBreakdown?.kvBlockLookups ?? null;
  if (requestLevel !== null) facts.push(["perf-metrics hit rate (block-weighted)", formatRate(requestLevel)]);
  else if (blockLookups === 0)
    facts.push([
      "perf-metrics hit rate (block-weighted)",
      "0 block lookups (kv_cache_metrics reused and missed blocks at 0)",
    ]);
  if (theoretical !== null) facts.push(["aiperf theoretical hit rate", formatRate(theoretical)]);
  const frontend = run.info.frontendCacheHitRate;
  if (typeof frontend === "number") facts.push(["Dynamo frontend hit rate", formatRate(frontend)]);
  // The router section below lists the predicted rate per pool; this older figure is for runs without it.
  const router = run.info.routerKvHitRate;
  if (typeof router === "number" && run.info.routerPrediction !== true)
    facts.push(["router predicted hit rate", formatRate(router)]);
  const d = endpoints.data;
  const s = series.data;
  return (
    <div className="space-y-4">
      <FactsList items={facts} testId="cache-facts" />
      {sm ? (
        <ChartStatus
          loading={endpoints.isLoading}
          error={endpoints.error}
          what="per-endpoint server metrics"
        />
      ) : null}
      {d ? (
        <>
          <EndpointChoiceRow
            payload={d}
            roles={d.rows.filter((r) => r.hitRate !== null).map((r) => r.role)}
          />
          <ChartFigure
            figure={endpointHitRateFigure(d.rows, endpointHitRateMissing(sm?.cache ?? null))}
            still={still}
          />
          {/* The definitions follow the chart, so the chart opens the view on a phone. */}
          {sm?.cache.method ? (
            <p className="text-xs text-muted">
              Server hit rates: {sm.cache.method}
              {sm.cache.countersExported?.length ? ` (${sm.cache.countersExported.join(", ")})` : ""}
              {typeof run.info.cacheHitRateScope === "string" ? ` over ${run.info.cacheHitRateScope}` : ""}.
              GPU, CPU/host and external are each that tier&apos;s served tokens over all prompt tokens looked
              up, and overall is their sum. Decode endpoints are left out when prefill endpoints exist: the KV
              they receive from prefill is not a cache hit.
            </p>
          ) : null}
          {perEndpointRequestLevel.length > 0 ? (
            <FactsList
              items={perEndpointRequestLevel.map((e) => [
                `${e.endpoint} perf-metrics`,
                formatRate(e.kvCacheHitRate),
              ])}
            />
          ) : null}
          <ChartStatus loading={series.isLoading} error={series.error} what="cache time series" />
          {s && hasField(s, "hitRate") ? (
            <div className="grid gap-4 lg:grid-cols-2">
              <ChartFigure figure={smSeriesFigure(s, "hitRate", { requestLevel })} />
              {hasField(s, "promptTokens") ? <ChartAreaPromptTokens series={s} /> : null}
            </div>
          ) : null}
        </>
      ) : null}
      {/* Under the view's first chart, the hit rate per endpoint, which the server draws in the
          page's HTML (lib/runs/first-figures.ts): the ledger's payload is asked for after
          hydration, and above that chart its chart and table pushed it a screen down once they came. */}
      <ReuseLedgerSection runId={run.id} enabled={run.info.reuseLedger === true} />
      <RouterPredictionSection runId={run.id} enabled={run.info.routerPrediction === true} />
      <RouterLogSection runId={run.id} enabled={run.info.routerLog === true} />
    </div>
  );
}
