/** The Cache, KV, Offload and Endpoints views' charts for the report, from the server-metrics payloads. */
import { plural } from "@/lib/format-number";
import { type SmPoint } from "@/lib/api/server-metrics-charts";
import type { Figure } from "./html";
import { figure, reportFigure, type Payloads } from "./figure-kit";
import {
  endpointCapacityFigure,
  endpointHitRateFigure,
  endpointOffloadFigure,
  OFFLOAD_DIRECTIONS,
} from "@/lib/metrics/figures/endpoints";
import { SM_CHARTS, SM_SERIES, type SmSeriesChart } from "@/lib/api/chart-catalog";

const pct = (v: number | null) => (v === null ? null : v * 100);

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
      figure(
        `${SM_CHARTS.endpoints.key}-usage`,
        "KV-cache usage per endpoint",
        "Average and maximum of the usage gauge over the window.",
        {
          kind: "bars",
          categories: rows.map((r) => `${r.endpoint} (${r.role})`),
          value: { title: "KV usage", unit: "%" },
          series: [
            { label: "average", values: rows.map((r) => pct(r.kvUsageAvg)) },
            { label: "maximum", values: rows.map((r) => pct(r.kvUsageMax)) },
          ],
        },
        "no endpoint exported a KV usage gauge",
        "endpoint",
      ),
    ],
    offload: (["gpuToCpu", "cpuToGpu"] as const).flatMap((d) =>
      has((r) => r[OFFLOAD_DIRECTIONS[d]]) ? [reportFigure(endpointOffloadFigure(rows, d))] : [],
    ),
  };
}

/** The whole run's series (all endpoints); each endpoint's are in `perEndpointSeriesFigures`. */
export function seriesFigures(p: Payloads): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const s = p.get(SM_SERIES.all());
  if (!s) return { cache: [], kv: [], offload: [] };
  const x = { title: "Time since the first scrape interval", unit: "s" };
  const line = (label: string, pick: (pt: SmPoint) => number | null) => ({
    label,
    points: s.points.map((pt) => [pt.t, pick(pt)] as const),
  });
  return {
    cache: [
      figure(
        `${SM_SERIES.all().key}-hit-rate`,
        "Prefix-cache hit rate over the run",
        "Per interval, over the endpoints that do prefill.",
        {
          kind: "line",
          x,
          y: { title: "Hit rate", unit: "%" },
          series: [line("hit rate", (pt) => pct(pt.hitRate))],
        },
        "the scrapes have fewer than two intervals with prefix-cache counters",
      ),
    ],
    kv: [
      figure(
        `${SM_SERIES.all().key}-kv-usage`,
        "KV-cache usage over the run",
        "Per interval: mean and maximum of the usage gauge.",
        {
          kind: "line",
          x,
          y: { title: "KV usage", unit: "%" },
          series: [line("average", (pt) => pct(pt.kvUsage)), line("maximum", (pt) => pct(pt.kvUsageMax))],
        },
        "the scrapes have fewer than two intervals with a KV usage gauge",
      ),
      figure(
        `${SM_SERIES.all().key}-queue`,
        "Requests running and waiting",
        "Per interval, mean of the engine's gauges.",
        {
          kind: "line",
          x,
          y: { title: "Requests", unit: "requests" },
          series: [line("running", (pt) => pt.running), line("waiting", (pt) => pt.waiting)],
        },
        "the scrapes have no running or waiting gauges",
      ),
    ],
    offload: [
      figure(
        `${SM_SERIES.all().key}-offload`,
        "KV offload rate over the run",
        "Bytes per second of the interval, each direction.",
        {
          kind: "line",
          x,
          y: { title: "Offload rate", unit: "MB/s" },
          series: [
            line("GPU → CPU", (pt) =>
              pt.offloadGpuToCpuBytesPerSecond === null ? null : pt.offloadGpuToCpuBytesPerSecond / 1e6,
            ),
            line("CPU → GPU", (pt) =>
              pt.offloadCpuToGpuBytesPerSecond === null ? null : pt.offloadCpuToGpuBytesPerSecond / 1e6,
            ),
          ],
        },
        "the scrapes have fewer than two intervals with offload byte counters",
      ),
    ],
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
  const loaded = endpointGroups(p)
    .map((g) => ({ ...g, s: p.get(g.chart) }))
    .filter((g): g is typeof g & { s: NonNullable<typeof g.s> } => g.s !== null);
  if (loaded.length < 2) return { cache: [], kv: [], offload: [] };
  const x = { title: "Time since the first scrape interval", unit: "s" };
  const lines = (pick: (pt: SmPoint) => number | null, of = loaded) =>
    of.map((g) => ({ label: g.label, points: g.s.points.map((pt) => [pt.t, pick(pt)] as const) }));
  // A decode endpoint does no prefill, so it has no prefix hits to count (the app reads n/a).
  const prefill = loaded.filter((g) => !g.decode);
  const n = plural(loaded.length, "endpoint");
  return {
    cache: [
      figure(
        `${SM_SERIES.prefix}ep-hit-rate`,
        "Prefix-cache hit rate per endpoint",
        `Per interval, one line per endpoint that does prefill (${prefill.map((g) => g.label).join(", ") || "none"}); ${plural(loaded.length - prefill.length, "decode endpoint")} ${loaded.length - prefill.length === 1 ? "has" : "have"} no prefill to hit.`,
        {
          kind: "line",
          x,
          y: { title: "Hit rate", unit: "%" },
          series: lines((pt) => pct(pt.hitRate), prefill),
        },
        "no prefill endpoint has two intervals with prefix-cache counters",
      ),
    ],
    kv: [
      figure(
        `${SM_SERIES.prefix}ep-kv-usage`,
        "KV-cache usage per endpoint",
        `Per interval, mean of each endpoint's usage gauge (${n}).`,
        { kind: "line", x, y: { title: "KV usage", unit: "%" }, series: lines((pt) => pct(pt.kvUsage)) },
        "no endpoint has two intervals with a KV usage gauge",
      ),
      figure(
        `${SM_SERIES.prefix}ep-running`,
        "Requests running per endpoint",
        `Per interval, mean of each endpoint's running gauge (${n}).`,
        {
          kind: "line",
          x,
          y: { title: "Requests running", unit: "requests" },
          series: lines((pt) => pt.running),
        },
        "no endpoint exported a running-requests gauge",
      ),
      figure(
        `${SM_SERIES.prefix}ep-waiting`,
        "Requests waiting per endpoint",
        `Per interval, mean of each endpoint's waiting gauge (${n}).`,
        {
          kind: "line",
          x,
          y: { title: "Requests waiting", unit: "requests" },
          series: lines((pt) => pt.waiting),
        },
        "no endpoint exported a waiting-requests gauge",
      ),
    ],
    offload: [
      figure(
        `${SM_SERIES.prefix}ep-offload`,
        "KV offload rate per endpoint, GPU → CPU",
        `Bytes per second of the interval moved from GPU to CPU memory, one line per endpoint (${n}).`,
        {
          kind: "line",
          x,
          y: { title: "Offload rate", unit: "MB/s" },
          series: lines((pt) =>
            pt.offloadGpuToCpuBytesPerSecond === null ? null : pt.offloadGpuToCpuBytesPerSecond / 1e6,
          ),
        },
        "no endpoint has two intervals with offload byte counters",
      ),
    ],
  };
}
