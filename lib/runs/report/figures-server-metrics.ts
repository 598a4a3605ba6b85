/** The Cache, KV, Offload and Endpoints views' charts for the report, from the server-metrics payloads. */
import {
  SM_ENDPOINTS_CHART,
  smEndpointsPayloadSchema,
  smSeriesPayloadSchema,
  type SmPoint,
} from "@/lib/api/server-metrics-charts";
import type { Figure } from "./html";
import { figure, type Payloads } from "./figure-kit";

const pct = (v: number | null) => (v === null ? null : v * 100);

export function endpointFigures(p: Payloads): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const payload = p.get(SM_ENDPOINTS_CHART, smEndpointsPayloadSchema);
  if (!payload) return { cache: [], kv: [], offload: [] };
  const categories = payload.rows.map((r) => `${r.endpoint} (${r.role})`);
  const bars = (
    title: string,
    unit: string,
    series: Array<{ label: string; values: Array<number | null> }>,
  ) => ({
    kind: "bars" as const,
    categories,
    value: { title, unit },
    series,
  });
  const rows = payload.rows;
  return {
    cache: [
      figure(
        `${SM_ENDPOINTS_CHART}-hit-rate`,
        "Prefix-cache hit rate per endpoint",
        "Cached prompt tokens over prompt tokens (token-weighted), per endpoint.",
        bars("Hit rate", "%", [
          { label: "GPU hit rate", values: rows.map((r) => pct(r.hitRate)) },
          { label: "CPU hit rate", values: rows.map((r) => pct(r.cpuHitRate)) },
        ]),
        "no endpoint exported prefix-cache counters or a hit-rate gauge",
        "endpoint",
      ),
    ],
    kv: [
      figure(
        `${SM_ENDPOINTS_CHART}-capacity`,
        "KV-cache capacity per endpoint",
        "Tokens the KV pool holds, summed per pool.",
        bars("KV capacity", "tokens", [{ label: "capacity", values: rows.map((r) => r.kvCapacityTokens) }]),
        "no endpoint exported KV capacity (or the engine log line)",
        "endpoint",
      ),
      figure(
        `${SM_ENDPOINTS_CHART}-usage`,
        "KV-cache usage per endpoint",
        "Average and maximum of the usage gauge over the window.",
        bars("KV usage", "%", [
          { label: "average", values: rows.map((r) => pct(r.kvUsageAvg)) },
          { label: "maximum", values: rows.map((r) => pct(r.kvUsageMax)) },
        ]),
        "no endpoint exported a KV usage gauge",
        "endpoint",
      ),
    ],
    offload: [
      figure(
        `${SM_ENDPOINTS_CHART}-offload`,
        "KV offload traffic per endpoint",
        "Bytes moved between GPU and CPU memory over the window.",
        bars("Bytes moved", "GB", [
          {
            label: "GPU → CPU",
            values: rows.map((r) => (r.offloadBytesGpuToCpu === null ? null : r.offloadBytesGpuToCpu / 1e9)),
          },
          {
            label: "CPU → GPU",
            values: rows.map((r) => (r.offloadBytesCpuToGpu === null ? null : r.offloadBytesCpuToGpu / 1e9)),
          },
        ]),
        "no endpoint exported KV offload byte counters",
        "endpoint",
      ),
    ],
  };
}

/** The whole run's series (all endpoints); per-endpoint series stay in the app. */
export function seriesFigures(p: Payloads): { cache: Figure[]; kv: Figure[]; offload: Figure[] } {
  const s = p.get("sm-series-all", smSeriesPayloadSchema);
  if (!s) return { cache: [], kv: [], offload: [] };
  const x = { title: "Time since the first scrape interval", unit: "s" };
  const line = (label: string, pick: (pt: SmPoint) => number | null) => ({
    label,
    points: s.points.map((pt) => [pt.t, pick(pt)] as const),
  });
  return {
    cache: [
      figure(
        "sm-series-all-hit-rate",
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
        "sm-series-all-kv-usage",
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
        "sm-series-all-queue",
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
        "sm-series-all-offload",
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
