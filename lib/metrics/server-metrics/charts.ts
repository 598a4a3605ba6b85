/**
 * The chart payloads of a run's server metrics: the endpoint table (with every number the
 * summary row has no field for), per-role subtotals, and one time-series payload per picker
 * choice (whole run, each role, each endpoint), so the browser fetches only what it shows.
 */
import { sumKnown } from "../stats";
import type { EndpointRole } from "@/lib/api/schemas";
import {
  type SmEndpointsPayload,
  type SmRoleSubtotal,
  type SmSeriesPayload,
} from "@/lib/api/server-metrics-charts";
import type { EndpointFacts } from "./endpoint-facts";
import { offGpu } from "./hit-rate";
import { combineCache, combineUsage, prefillSide, ROLE_ORDER, type ServerMetricsSummary } from "./summarize";
import { buildRouterPrediction } from "./router-prediction";
import { buildSeries } from "./timeseries";
import { SM_CHARTS, SM_SERIES } from "@/lib/api/chart-catalog";

function roleSubtotal(role: EndpointRole, group: EndpointFacts[]): SmRoleSubtotal {
  const cache = combineCache(group);
  const usage = combineUsage(group);
  return {
    role,
    endpoints: group.length,
    hitRate: cache.gpuHitRate,
    hitRateMethod: cache.method,
    promptTokens: sumKnown(group.map((f) => f.promptTokens ?? f.frontendInputTokens)),
    cachedTokens: cache.cachedTotal,
    generationTokens: sumKnown(group.map((f) => f.generationTokens ?? f.frontendOutputTokens)),
    kvCapacityTokens: sumKnown(group.map((f) => f.capacity?.tokens ?? null)),
    kvUsageAvg: usage.avg,
    kvUsageMax: usage.max,
    offloadBytesGpuToCpu: sumKnown(group.map((f) => f.offloadBytesGpuToCpu)),
    offloadBytesCpuToGpu: sumKnown(group.map((f) => f.offloadBytesCpuToGpu)),
  };
}

const hasSlices = (f: EndpointFacts) => f.series.some((s) => (s.slices?.value.length ?? 0) > 0);

export function buildServerMetricsCharts(summary: ServerMetricsSummary): Record<string, unknown> {
  const { facts } = summary;
  const charts: Record<string, unknown> = {};
  const groups: SmEndpointsPayload["groups"] = [];
  const addSeries = (id: string, label: string, chartKey: string, payload: SmSeriesPayload) => {
    if (payload.points.length === 0) return;
    charts[chartKey] = payload;
    groups.push({ id, label, chartKey });
  };
  if (facts.some(hasSlices)) {
    addSeries(
      "all",
      "All endpoints",
      SM_SERIES.all().key,
      buildSeries("all", "All endpoints", facts, prefillSide(facts)),
    );
    for (const role of ROLE_ORDER) {
      const group = facts.filter((f) => f.role === role);
      if (group.length === 0) continue;
      const id = `role:${role}`;
      addSeries(id, `All ${role}`, SM_SERIES.role(role).key, buildSeries(id, `All ${role}`, group, group));
    }
    facts.forEach((f, i) => {
      if (hasSlices(f))
        addSeries(
          f.endpoint,
          f.endpoint,
          SM_SERIES.endpoint(i).key,
          buildSeries(f.endpoint, f.endpoint, [f], [f]),
        );
    });
  }
  const roles = ROLE_ORDER.map((r) => [r, facts.filter((f) => f.role === r)] as const)
    .filter(([, g]) => g.length > 0)
    .map(([r, g]) => roleSubtotal(r, g));
  const payload: SmEndpointsPayload = {
    rows: facts.map((f) => ({
      endpoint: f.endpoint,
      role: f.role,
      engine: f.engine,
      hitRate: f.hitRate,
      hitRateMethod:
        f.hitRateMethod === "counters"
          ? (f.cache?.source ?? "counters")
          : f.hitRateMethod === "gauge"
            ? "gauge avg"
            : null,
      gaugeHitRateAvg: f.gaugeHitRateAvg,
      cpuHitRate: f.cpuHitRate,
      promptTokens: f.promptTokens ?? f.frontendInputTokens,
      cachedTokens: f.counts ? f.counts.gpu : f.frontendCachedTokens,
      // CPU/host + external: every token served off the GPU, never counted as computed.
      externalCachedTokens: f.counts ? offGpu(f.counts) : null,
      generationTokens: f.generationTokens ?? f.frontendOutputTokens,
      kvCapacityTokens: f.capacity?.tokens ?? null,
      kvPoolTokens: f.capacity?.pools ?? [],
      kvCapacitySource: f.capacity?.source ?? null,
      kvUsageAvg: f.usageAvg,
      kvUsageMax: f.usageMax,
      cpuUsageMax: f.cpuUsageMax,
      offloadBytesGpuToCpu: f.offloadBytesGpuToCpu,
      offloadBytesCpuToGpu: f.offloadBytesCpuToGpu,
      offloadBandwidthGpuToCpuBytesPerSecond: f.offloadBandwidthGpuToCpu,
      offloadBandwidthCpuToGpuBytesPerSecond: f.offloadBandwidthCpuToGpu,
      offloadBandwidthMethod: f.offloadBandwidthMethod,
      offloadTimeGpuToCpuS: f.offloadTimeGpuToCpuS,
      offloadTimeCpuToGpuS: f.offloadTimeCpuToGpuS,
      offloadSource: f.offloadSource,
      offloadTiers: f.offloadTiers,
      externalHitRate: f.externalHitRate,
      runningAvg: f.runningAvg,
      waitingAvg: f.waitingAvg,
      frontendHitRate:
        f.frontendInputTokens && f.frontendCachedTokens !== null
          ? f.frontendCachedTokens / f.frontendInputTokens
          : null,
      routerKvHitRate: f.routerKvHitRate,
      routerSharedHitRate: f.routerSharedHitRate,
      windowS: f.windowS,
      windowSource: f.windowSource,
    })),
    roles,
    groups,
  };
  charts[SM_CHARTS.endpoints.key] = payload;
  const router = buildRouterPrediction(facts);
  if (router) charts[SM_CHARTS.router.key] = router;
  return charts;
}
