/**
 * Combines what each analyzer produced into the run's summary blocks. Pure: the pipeline
 * calls it, tests call it.
 */
import { ENGINE_CONFIG_KEYS } from "@/lib/formats/run-config";
import { PIECED_CHARTS } from "@/lib/api/chart-catalog";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { Collectors, CollectorsInferredFrom, EndpointRow, SummaryBlocks } from "@/lib/api/schemas";
import { inferencexAgreement } from "@/lib/metrics/inferencex-agreement";
import type { AnalyzerResult } from "./analyzer";

/** An endpoint row with nothing known yet: every number null, role `combined`. */
export const EMPTY_ENDPOINT: Omit<EndpointRow, "endpoint"> = {
  role: "combined",
  cacheHitRate: null,
  promptTokens: null,
  cachedTokens: null,
  generationTokens: null,
  kvCapacityTokens: null,
  kvUsageAvg: null,
  offloadBytesGpuToCpu: null,
  offloadBytesCpuToGpu: null,
  offloadBandwidthGpuToCpuBytesPerSecond: null,
  offloadBandwidthCpuToGpuBytesPerSecond: null,
  requestCount: null,
  kvCacheHitRate: null,
};

/** A collector is on if any source says so, off if a source says so and none says on, else unknown. */
function mergeCollector(values: Array<boolean | null | undefined>): boolean | null {
  if (values.includes(true)) return true;
  if (values.includes(false)) return false;
  return null;
}

export function mergeEndpoints(results: AnalyzerResult[]): EndpointRow[] {
  const byKey = new Map<string, EndpointRow>();
  for (const r of results) {
    for (const e of r.endpoints ?? []) {
      const current = byKey.get(e.endpoint) ?? { endpoint: e.endpoint, ...EMPTY_ENDPOINT };
      for (const [k, v] of Object.entries(e) as Array<[keyof EndpointRow, unknown]>) {
        if (v === null || v === undefined || k === "endpoint") continue;
        // The first analyzer to know a value keeps it; a specific role beats the default.
        if (k === "role") {
          if (current.role === "combined") current.role = v as EndpointRow["role"];
        } else if (current[k] === null) {
          (current as Record<string, unknown>)[k] = v;
        }
      }
      byKey.set(e.endpoint, current);
    }
  }
  // One order for every table and chart of endpoints, whichever analyzer named them first.
  return [...byKey.values()].sort((a, b) => compareEndpointNames(a.endpoint, b.endpoint));
}

/**
 * An InferenceX result beside the aiperf records it describes is no second run: its figures join
 * the run's info, and here they are held to the records' (agreement said either way).
 */
function checkInferencex(blocks: SummaryBlocks): void {
  const check = inferencexAgreement(blocks.requests, blocks.info);
  if (!check) return;
  if (check.differences.length === 0)
    blocks.info.inferencexAgreesWithRecords = `${check.compared} of ${check.compared} figures (successful requests, TTFT and E2E means, output tokens/s)`;
  else
    blocks.warnings.push(
      `InferenceX's result disagrees with the aiperf records on ${check.differences.length} of ${check.compared} figures: ${check.differences.join("; ")}. It may describe another run.`,
    );
}

/**
 * A result's info as it joins the run: an InferenceX result beside aiperf's own records (which
 * make the run) adds only its figures under InferenceX's names, not its run-level entries
 * (benchmark tool, endpoint, request count), which are the aiperf run's; its engine settings
 * (speculative decoding, offloading), which aiperf does not state, join too.
 */
function joiningInfo(r: AnalyzerResult, results: AnalyzerResult[]): AnalyzerResult["info"] {
  if (r.info?.benchmarkTool !== "InferenceX") return r.info;
  const aiperfRun = results.some(
    (o) => o.requests?.source === "aiperf" && o.info?.benchmarkTool === undefined,
  );
  if (!aiperfRun) return r.info;
  const engine = (k: string) => ENGINE_CONFIG_KEYS.some((e) => k === e || k === `${e}Source`);
  return Object.fromEntries(Object.entries(r.info).filter(([k]) => k.startsWith("inferencex ") || engine(k)));
}

export function mergeResults(results: AnalyzerResult[], extraWarnings: string[] = []): SummaryBlocks {
  const pick = <K extends "requests" | "timeBreakdown" | "serverMetrics">(k: K): SummaryBlocks[K] =>
    (results.find((r) => r[k] != null)?.[k] ?? null) as SummaryBlocks[K];
  const collectorKeys: Array<keyof Collectors> = [
    "returnPerfMetrics",
    "enableIterPerfStats",
    "publishKvEvents",
  ];
  const collectors = Object.fromEntries(
    collectorKeys.map((k) => [k, mergeCollector(results.map((r) => r.collectors?.[k]))]),
  ) as Collectors;
  // On by a flag's implication only: no source says it is on by itself.
  const inferredFrom: CollectorsInferredFrom = {};
  for (const k of collectorKeys) {
    if (collectors[k] !== true) continue;
    const direct = results.some((r) => r.collectors?.[k] === true && !r.collectorsInferredFrom?.[k]);
    const evidence = results.find((r) => r.collectorsInferredFrom?.[k])?.collectorsInferredFrom?.[k];
    if (!direct && evidence) inferredFrom[k] = evidence;
  }

  const blocks: SummaryBlocks = {
    collectors,
    ...(Object.keys(inferredFrom).length > 0 ? { collectorsInferredFrom: inferredFrom } : {}),
    requests: pick("requests"),
    timeBreakdown: pick("timeBreakdown"),
    serverMetrics: pick("serverMetrics"),
    endpoints: mergeEndpoints(results),
    info: results.reduce<SummaryBlocks["info"]>(
      (info, r) => Object.assign(info, joiningInfo(r, results)),
      {},
    ),
    warnings: [...extraWarnings, ...results.flatMap((r) => r.warnings ?? [])],
    throughput: results.find((r) => r.throughput)?.throughput ?? null,
  };
  checkInferencex(blocks);
  return blocks;
}

/**
 * Every analyzer's payloads by key, a later analyzer's replacing an earlier one's. A pieced list
 * (lib/api/chart-catalog.ts) is replaced whole: a Dynamo trace's agent sessions replace aiperf's,
 * and aiperf's pages past the trace's count would stay stored, unreachable, under their keys.
 */
export function mergeCharts(results: AnalyzerResult[]): Record<string, unknown> {
  const charts: Record<string, unknown> = {};
  for (const r of results) {
    if (!r.charts) continue;
    for (const list of PIECED_CHARTS)
      if (list.index.key in r.charts)
        for (const key of Object.keys(charts)) if (list.fromKey(key) !== null) delete charts[key];
    Object.assign(charts, r.charts);
  }
  return charts;
}

/** Runs-table columns: the engine from server metrics first, else whichever analyzer named one. */
export function pickBackend(blocks: SummaryBlocks, results: AnalyzerResult[]): string | null {
  return blocks.serverMetrics?.backend ?? results.find((r) => r.backend)?.backend ?? null;
}

export function pickRequestCount(blocks: SummaryBlocks, results: AnalyzerResult[]): number | null {
  return (
    blocks.requests?.count ??
    blocks.timeBreakdown?.requestCount ??
    results.find((r) => r.requestCount != null)?.requestCount ??
    null
  );
}
