/**
 * Payload → chart rows for the server-metrics views (pure, unit-tested). Bars keep the role so
 * each bar is coloured by it; time rows keep null where an interval has no data so lines break
 * instead of dropping to 0.
 */
import type { EndpointRole } from "@/lib/api/schemas";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { SmEndpointDetail, SmEndpointsPayload, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SM_SERIES, type SmSeriesChart } from "@/lib/api/chart-catalog";

export interface EndpointBarRow {
  endpoint: string;
  role: EndpointRole;
  value: number;
}

export type EndpointBarMetric =
  | "hitRate"
  | "kvCapacityTokens"
  | "kvUsageAvg"
  | "offloadBandwidthGpuToCpuBytesPerSecond"
  | "offloadBandwidthCpuToGpuBytesPerSecond";

/** One bar per endpoint that has the metric, prefill first (the order of the role legend). */
export function endpointBarRows(
  rows: readonly SmEndpointDetail[],
  metric: EndpointBarMetric,
): EndpointBarRow[] {
  const order: EndpointRole[] = ["prefill", "combined", "decode", "router", "frontend"];
  return rows
    .filter((r) => r[metric] !== null)
    .map((r) => ({ endpoint: r.endpoint, role: r.role, value: r[metric] as number }))
    .sort(
      (a, b) => order.indexOf(a.role) - order.indexOf(b.role) || compareEndpointNames(a.endpoint, b.endpoint),
    );
}

/** The endpoint picker's value ("all", "role:<role>", an endpoint) → the series chart to fetch. */
export function seriesChart(payload: SmEndpointsPayload, choice: string): SmSeriesChart | null {
  const hit = payload.groups.find((g) => g.id === choice) ?? payload.groups.find((g) => g.id === "all");
  return hit ? SM_SERIES.fromKey(hit.chartKey) : null;
}

export interface TimeRow {
  t: number;
  [k: string]: number | null;
}

export type SeriesField = Exclude<keyof SmSeriesPayload["points"][number], "t" | "durationS">;

/** Rows for a time chart of the chosen fields; `scale` turns fractions into % or bytes into GB/s. */
export function timeRows(series: SmSeriesPayload, fields: readonly SeriesField[], scale = 1): TimeRow[] {
  return series.points.map((p) => {
    const row: TimeRow = { t: p.t };
    for (const f of fields) row[f] = p[f] === null || p[f] === undefined ? null : (p[f] as number) * scale;
    return row;
  });
}

/** Whether any interval of the series carries this field (charts without data are not drawn). */
export function hasField(series: SmSeriesPayload, field: SeriesField): boolean {
  return series.points.some((p) => p[field] !== null && p[field] !== undefined);
}

/**
 * Rows of per-second rates: each interval's count over the seconds it covers, so a partial last
 * interval (the window ends inside it) reads at its true rate instead of as a collapse.
 */
export function perSecondRows(series: SmSeriesPayload, fields: readonly SeriesField[]): TimeRow[] {
  return series.points.map((p) => {
    const row: TimeRow = { t: p.t };
    const s = p.durationS ?? series.sliceS;
    for (const f of fields) {
      const v = p[f];
      row[f] = v === null || v === undefined || !s ? null : v / s;
    }
    return row;
  });
}

/** "the last interval covers 4.4 s of 5 s" when it is partial, else null. */
export function partialIntervalNote(series: SmSeriesPayload): string | null {
  const last = series.points[series.points.length - 1];
  const full = series.sliceS;
  if (!last || last.durationS === null || full === null || last.durationS >= full * 0.999) return null;
  const fmt = (x: number) => (Math.round(x * 10) / 10).toString();
  return `the last interval covers ${fmt(last.durationS)} s of ${fmt(full)} s (partial)`;
}
