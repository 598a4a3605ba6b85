/** The Cache, KV, Offload and Endpoints views' charts for the report, from the server-metrics payloads. */
import type { Figure } from "./html";
import { reportFigure, type Payloads } from "./figure-kit";
import {
  endpointCapacityFigure,
  endpointHitRateFigure,
  endpointOffloadFigure,
  endpointUsageFigure,
  OFFLOAD_DIRECTIONS,
} from "@/lib/metrics/figures/endpoints";
import {
  smEndpointSeriesFigure,
  smSeriesFigure,
  type SmEndpointSeriesMetric,
  type SmSeriesMetric,
} from "@/lib/metrics/figures/server-series";
import { SM_CHARTS, SM_SERIES, type SmSeriesChart } from "@/lib/api/chart-catalog";

export function endpointFigures(
  p: Payloads,
  hitRateMissing?: string,
): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const payload = p.get(SM_CHARTS.endpoints);
  if (!payload) return { cache: [], kv: [], offload: [] };
  const rows = payload.rows;
  // As the Cache, KV and Offload views draw them (components/run-views/): the hit rate always
  // (what is missing said in its place), the others where an endpoint has them.
  const has = (pick: (r: (typeof rows)[number]) => number | null) => rows.some((r) => pick(r) !== null);
  return {
    cache: [reportFigure(endpointHitRateFigure(rows, hitRateMissing))],
    kv: [
      ...(has((r) => r.kvCapacityTokens) ? [reportFigure(endpointCapacityFigure(rows))] : []),
      ...(has((r) => r.kvUsageAvg) ? [reportFigure(endpointUsageFigure(rows))] : []),
    ],
    offload: (["gpuToCpu", "cpuToGpu"] as const).flatMap((d) =>
      has((r) => r[OFFLOAD_DIRECTIONS[d]]) ? [reportFigure(endpointOffloadFigure(rows, d))] : [],
    ),
  };
}

/**
 * The whole run's series (all endpoints), as the Cache, KV and Offload views draw the group
 * picked (lib/metrics/figures/server-series.ts); each endpoint's are in `perEndpointSeriesFigures`.
 * `requestLevel`: the perf-metrics hit rate, a level on the hit-rate chart as on the page.
 */
export function seriesFigures(
  p: Payloads,
  requestLevel: number | null = null,
): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const s = p.get(SM_SERIES.all());
  if (!s) return { cache: [], kv: [], offload: [] };
  const drawn = (m: SmSeriesMetric) => reportFigure(smSeriesFigure(s, m, { requestLevel }));
  return {
    cache: [drawn("hitRate")],
    kv: [drawn("kvUsage"), drawn("queue")],
    offload: [drawn("offload")],
  };
}

/** The series groups of single endpoints (not the run's nor a role's), when there are two or more. */
function endpointGroups(p: Payloads): Array<{ label: string; chart: SmSeriesChart; decode: boolean }> {
  const payload = p.get(SM_CHARTS.endpoints);
  const roles = new Map((payload?.rows ?? []).map((r) => [r.endpoint, r.role]));
  const groups = (payload?.groups ?? [])
    .filter((g) => g.id !== "all" && !g.id.startsWith("role:"))
    .flatMap((g) => {
      const chart = SM_SERIES.fromKey(g.chartKey);
      return chart ? [{ label: g.label, chart, decode: roles.get(g.id) === "decode" }] : [];
    });
  // One endpoint's series are the run's, drawn already.
  return groups.length >= 2 ? groups : [];
}

/** The stored series payloads the per-endpoint figures read, listed by the endpoints payload. */
export function endpointSeriesKeys(p: Payloads): string[] {
  return endpointGroups(p).map((g) => g.chart.key);
}

/**
 * Each endpoint's series, one line per endpoint in one chart per metric (as the app's endpoint
 * picker shows them one at a time): where one endpoint's cache, KV or queue differs from the
 * others over the run.
 */
export function perEndpointSeriesFigures(p: Payloads): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const loaded = endpointGroups(p).flatMap((g) => {
    const series = p.get(g.chart);
    return series ? [{ label: g.label, decode: g.decode, series }] : [];
  });
  if (loaded.length < 2) return { cache: [], kv: [], offload: [] };
  const drawn = (m: SmEndpointSeriesMetric) => reportFigure(smEndpointSeriesFigure(loaded, m));
  return {
    cache: [drawn("hitRate")],
    kv: [drawn("kvUsage"), drawn("running"), drawn("waiting")],
    offload: [drawn("offload")],
  };
}
