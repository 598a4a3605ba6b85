import { formatBytes, formatCount, formatNumber, formatRate } from "@/lib/format-number";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";

export interface EndpointColumn {
  key: keyof SmEndpointDetail | "requestLevelHitRate";
  label: string;
  format: (v: unknown) => string;
  /** Words, not numbers: left-aligned. */
  text?: boolean;
}

const rate = (v: unknown) => formatRate(v as number | null);
const count = (v: unknown) => formatCount(v as number | null);
const bytes = (v: unknown) => formatBytes(v as number | null);
const gbps = (v: unknown) => (v === null ? "—" : `${formatNumber((v as number) / 1e9, 2)} GB/s`);
const text = (v: unknown) => (v === null || v === undefined ? "—" : String(v));

/** Every per-endpoint number the server-metrics ingest knows, in table order. */
export const ENDPOINT_COLUMNS: EndpointColumn[] = [
  { key: "role", label: "role", format: text, text: true },
  { key: "engine", label: "engine", format: text, text: true },
  { key: "hitRate", label: "hit rate", format: rate },
  { key: "hitRateMethod", label: "from", format: text, text: true },
  { key: "requestLevelHitRate", label: "perf-metrics hit rate", format: rate },
  { key: "cpuHitRate", label: "CPU/host + external hit rate", format: rate },
  { key: "promptTokens", label: "prompt tokens", format: count },
  { key: "cachedTokens", label: "cached tokens", format: count },
  { key: "generationTokens", label: "generation tokens", format: count },
  { key: "kvCapacityTokens", label: "KV capacity (tokens)", format: count },
  {
    key: "kvPoolTokens",
    label: "pools (tokens)",
    // Endpoints known only from perf metrics have no pools at all (null), not an empty list.
    format: (v) => (Array.isArray(v) && v.length ? (v as number[]).map(formatCount).join(" + ") : "—"),
  },
  { key: "kvUsageAvg", label: "usage mean", format: rate },
  { key: "kvUsageMax", label: "usage peak", format: rate },
  { key: "cpuUsageMax", label: "CPU usage peak", format: rate },
  { key: "offloadBytesGpuToCpu", label: "offload GPU→CPU", format: bytes },
  { key: "offloadBytesCpuToGpu", label: "onboard CPU→GPU", format: bytes },
  { key: "offloadBandwidthGpuToCpuBytesPerSecond", label: "BW GPU→CPU", format: gbps },
  { key: "offloadBandwidthCpuToGpuBytesPerSecond", label: "BW CPU→GPU", format: gbps },
  { key: "runningAvg", label: "running (mean)", format: (v) => formatNumber(v as number | null, 1) },
  { key: "waitingAvg", label: "waiting (mean)", format: (v) => formatNumber(v as number | null, 1) },
  { key: "frontendHitRate", label: "frontend hit rate", format: rate },
  { key: "routerKvHitRate", label: "router hit rate", format: rate },
  { key: "windowS", label: "window (s)", format: (v) => formatNumber(v as number | null, 1) },
];
