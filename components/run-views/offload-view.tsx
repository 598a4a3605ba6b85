"use client";

import { ChartFigure } from "@/components/charts/chart-figure";
import { KvTransferFigure } from "@/components/breakdown/kv-transfer-figure";
import type { RunViewProps } from "@/components/run/run-view-props";
import { EndpointChoiceRow } from "@/components/server-metrics/endpoint-picker";
import { FactsList } from "@/components/server-metrics/facts-list";
import { OffloadEndpointTable } from "@/components/server-metrics/offload-endpoint-table";
import { OffloadTierTable } from "@/components/server-metrics/offload-tier-table";
import { ChartStatus } from "@/components/charts/chart-status";
import { useStillFigure } from "@/components/run/still-figures";
import { useSmData } from "@/components/server-metrics/use-sm-chart";
import { byteRateUnit, formatBytes, formatNumber, formatRate } from "@/lib/format-number";
import { hasField } from "@/lib/metrics/server-metrics/chart-rows";
import { hasOffloadCounters, runView } from "@/lib/api/run-views";
import { endpointOffloadFigure } from "@/lib/metrics/figures/endpoints";
import { smSeriesFigure } from "@/lib/metrics/figures/server-series";
import { ManifestEmptyView } from "./empty-view";

/**
 * Both directions' bandwidth in one unit, the one their larger value reads in (5 MB/s beside
 * 9.5 GB/s is "0.01 GB/s"; 5 MB/s beside 2 MB/s is MB/s, never "0.005 GB/s").
 */
function bandwidths(...values: (number | null)[]): string[] {
  const { unit, divisor } = byteRateUnit(Math.max(0, ...values.filter((v) => v !== null)));
  return values.map((v) => (v === null ? "—" : `${formatNumber(v / divisor, 2)} ${unit}`));
}

export function OffloadView({ run }: RunViewProps) {
  const sm = run.serverMetrics;
  const { endpoints, series } = useSmData(run.id, sm !== null);
  // The server's drawings of the bandwidth per endpoint (lib/runs/first-figures.ts), until the charts draw.
  const stillOut = useStillFigure("endpoint-offload-gpuToCpu");
  const stillBack = useStillFigure("endpoint-offload-cpuToGpu");
  const transfer = run.timeBreakdown?.kvTransfer ?? null;
  const off = sm?.kvOffload;
  const hasOffload = hasOffloadCounters(run);
  if (!runView("offload").hasData(run))
    return <ManifestEmptyView id="offload" title="No KV offload or transfer data in this run" />;
  const d = endpoints.data;
  const s = series.data;
  const method = run.info.offloadBandwidthMethod;
  const source = run.info.offloadCounterSource;
  const external = run.info.externalPrefixCacheHitRate;
  const [outBandwidth, backBandwidth] = bandwidths(
    off?.bandwidthGpuToCpuBytesPerSecond ?? null,
    off?.bandwidthCpuToGpuBytesPerSecond ?? null,
  );
  return (
    <div className="space-y-4">
      {hasOffload && off ? (
        <>
          <FactsList
            testId="offload-facts"
            items={[
              ["GPU → CPU", formatBytes(off.bytesGpuToCpu)],
              ["CPU → GPU", formatBytes(off.bytesCpuToGpu)],
              ["bandwidth GPU → CPU", outBandwidth],
              ["bandwidth CPU → GPU", backBandwidth],
              [
                "KV connector lookup hit rate (hits / tokens the GPU cache missed)",
                typeof external === "number" ? formatRate(external) : "not exported",
              ],
            ]}
          />
          <p className="text-xs text-muted" data-testid="offload-method">
            Bandwidth:{" "}
            {typeof method === "string" ? method : "not measurable (no transfer time and no window)"}. Without
            transfer-time counters the number is an average over the profiling window, not the link speed.
            {typeof source === "string" ? ` Counters read: ${source}.` : null}
          </p>
        </>
      ) : null}
      {transfer ? (
        <FactsList
          items={[
            ["KV transfers (perf metrics)", String(transfer.count)],
            [
              "transfer bandwidth p50",
              transfer.bandwidthGBps ? `${formatNumber(transfer.bandwidthGBps.p50, 2)} GB/s` : "—",
            ],
            [
              "transfer bandwidth p90",
              transfer.bandwidthGBps ? `${formatNumber(transfer.bandwidthGBps.p90, 2)} GB/s` : "—",
            ],
          ]}
        />
      ) : null}
      {transfer ? <KvTransferFigure runId={run.id} /> : null}
      {hasOffload ? (
        <ChartStatus loading={endpoints.isLoading} error={endpoints.error} what="per-endpoint offload" />
      ) : null}
      {hasOffload && d ? (
        <>
          {/* The bandwidth charts come before the tables: on a 390 px phone the tables pushed
              every chart below the first screen. The role legend and the endpoint choice sit
              with the time series they steer. */}
          <div className="grid gap-4 lg:grid-cols-2">
            {d.rows.some((r) => r.offloadBandwidthGpuToCpuBytesPerSecond !== null) ? (
              <ChartFigure figure={endpointOffloadFigure(d.rows, "gpuToCpu")} still={stillOut} />
            ) : null}
            {d.rows.some((r) => r.offloadBandwidthCpuToGpuBytesPerSecond !== null) ? (
              <ChartFigure figure={endpointOffloadFigure(d.rows, "cpuToGpu")} still={stillBack} />
            ) : null}
          </div>
          <OffloadEndpointTable rows={d.rows} />
          <OffloadTierTable rows={d.rows} />
          <EndpointChoiceRow
            payload={d}
            roles={d.rows
              .filter((r) => r.offloadBytesGpuToCpu !== null || r.offloadBytesCpuToGpu !== null)
              .map((r) => r.role)}
          />
          {s &&
          (hasField(s, "offloadGpuToCpuBytesPerSecond") ||
            hasField(s, "offloadCpuToGpuBytesPerSecond") ||
            hasField(s, "offloadGpuToCpuBandwidth") ||
            hasField(s, "offloadCpuToGpuBandwidth")) ? (
            <ChartFigure figure={smSeriesFigure(s, "offload")} />
          ) : null}
        </>
      ) : null}
    </div>
  );
}
