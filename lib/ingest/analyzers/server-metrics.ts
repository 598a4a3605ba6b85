/**
 * Server metrics analyzer: aiperf server-metrics exports (JSON, CSV, raw JSONL scrapes), plain
 * Prometheus scrapes and engine logs → the `serverMetrics` block, endpoint rows and the "sm-*"
 * chart payloads (docs/metrics.md §Server metrics, §Endpoints). One run often carries the same scrapes in
 * several exports; only the most complete format is counted (JSON > JSONL > CSV) so nothing is added
 * twice. Prometheus text scrapes are separate endpoints and always count.
 */
import { WarningLog } from "@/lib/formats/json-lines";
import { readPrometheusText } from "@/lib/formats/prometheus-text";
import { readServerLog, type LogCapacity } from "@/lib/formats/server-log";
import { LogFactsScanner } from "@/lib/formats/server-log-facts";
import { vllmRunConfig, type RunConfigInfo } from "@/lib/formats/run-config";
import { VLLM_CACHE_CONFIG_INFO } from "@/lib/formats/server-metrics/catalog";
import { serverMetricsFacts, withLogFacts } from "@/lib/metrics/server-metrics/run-facts";
import { readServerMetricsCsv } from "@/lib/formats/server-metrics-csv";
import { readServerMetricsJson } from "@/lib/formats/server-metrics-json-stream";
import { readScrapeLog } from "@/lib/formats/server-metrics-jsonl";
import {
  cutScrapes,
  SCRAPE_SPAN_PREFIX,
  scrapeSpan,
  type ScrapeLog,
} from "@/lib/formats/server-metrics/scrape-set";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import { jsonlCapacityWarning } from "@/lib/metrics/server-metrics/capacity";
import { buildServerMetricsCharts } from "@/lib/metrics/server-metrics/charts";
import { routerRunInfo } from "@/lib/metrics/server-metrics/router-prediction";
import { type RouterPredictionPayload } from "@/lib/api/router-prediction";
import { prefillSide, summarizeServerMetrics } from "@/lib/metrics/server-metrics/summarize";
import { servedIntervals, servedIntervalsByEndpoint } from "@/lib/metrics/server-metrics/timeseries";
import { endpointReuseIntervals, ReuseFeed, reuseIntervals } from "@/lib/metrics/reuse-intervals";
import { buildRouterLogPrediction, RouterLogFeed } from "@/lib/metrics/server-metrics/router-log-prediction";
import { CacheFeed } from "@/lib/metrics/reuse-ledger";
import { emptyMetricSet, mergeMetricSets, type MetricSet } from "@/lib/formats/server-metrics/types";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import { REUSE_INTERVALS_CHART, ROUTER_LOG_CHART, SM_CHARTS } from "@/lib/api/chart-catalog";

type ExportFormat = "json" | "jsonl" | "csv" | "prometheus";
/** The report's meta of an export none of which was kept (its warning says why). */
const NOT_KEPT = { notRead: true, note: "nothing kept: the document is incomplete or not valid JSON" };
const PREFERENCE: ExportFormat[] = ["json", "jsonl", "csv"];

/**
 * `clock`: the profiling phase as the aiperf files place it. Raw JSONL scrapes are kept until
 * `finish` and cut to that phase then (the other exports were cut by aiperf itself). `feed`: the
 * records' possible reuse, stacked against the engines' cache counters per interval. `routed`: the
 * router log's decisions, set beside the engines' own counters. `cache`: what this analyzer hands
 * on to the reuse ledger (the engines' counters and the router's payloads).
 */
export function serverMetricsAnalyzer(
  clock = new ProfilingClock(),
  feed = new ReuseFeed(),
  routed = new RouterLogFeed(),
  cache = new CacheFeed(),
): Analyzer {
  const sets: Record<ExportFormat, { set: MetricSet; files: string[] }> = {
    json: { set: emptyMetricSet(), files: [] },
    jsonl: { set: emptyMetricSet(), files: [] },
    csv: { set: emptyMetricSet(), files: [] },
    prometheus: { set: emptyMetricSet(), files: [] },
  };
  const logs: LogCapacity[] = [];
  const logFacts = new LogFactsScanner();
  const scrapeLogs: ScrapeLog[] = [];

  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    if (file.format === "jsonl" && sets.json.files.length > 0) {
      // The JSON export of the same scrapes came first and is what counts (PREFERENCE), so the
      // raw scrapes, often the largest file of a run, are stored as sent but not read.
      sets.jsonl.files.push(file.name);
      return {
        records: 0,
        skipped: 0,
        warnings: [],
        meta: {
          notRead: true,
          note: `not read: the JSON export ${sets.json.files.join(", ")} of the same scrapes is used`,
        },
      };
    }
    const warnings = new WarningLog();
    const stream = await file.open();
    const counts = { records: 0, skipped: 0 };
    if (file.kind === "server-log") {
      const cap = await readServerLog(stream, (text) => logFacts.line(text));
      if (cap) logs.push(cap);
      return {
        records: cap ? cap.pools : 0,
        skipped: 0,
        warnings: warnings.toList(),
        meta: cap
          ? { engine: cap.engine, kvCapacityTokens: cap.tokens, note: cap.note }
          : { note: "no KV pool size line" },
      };
    }
    let set: MetricSet | null = null;
    let format: ExportFormat;
    switch (file.format) {
      case "json":
        format = "json";
        set = await readServerMetricsJson(stream, warnings);
        // Not valid or cut off: nothing of it is kept, so it has no counts (never "0 skipped").
        if (!set) return { records: 0, skipped: 0, warnings: warnings.toList(), meta: NOT_KEPT };
        // JSONL scrapes read before it would not be counted (PREFERENCE): their tracks can go now.
        scrapeLogs.length = 0;
        break;
      case "csv":
        format = "csv";
        set = await readServerMetricsCsv(stream, warnings);
        break;
      case "jsonl": {
        format = "jsonl";
        const scrapes = await readScrapeLog(stream, warnings, counts, ctx.limits.maxLineBytes);
        scrapeLogs.push(scrapes);
        sets.jsonl.files.push(file.name);
        const endpoints = new Set(scrapes.tracks.map((t) => t.endpoint));
        return {
          records: counts.records,
          skipped: counts.skipped,
          warnings: warnings.toList(),
          meta: { series: scrapes.tracks.length, endpoints: endpoints.size, lifetimeCounters: false },
        };
      }
      default:
        format = "prometheus";
        set = await readPrometheusText(
          stream,
          normalizeEndpoint(file.name.replace(/\.(prom|txt)$/i, "")),
          warnings,
          counts,
        );
    }
    if (set) {
      mergeMetricSets(sets[format].set, set);
      sets[format].files.push(file.name);
    }
    const endpoints = new Set(set?.series.map((s) => s.endpoint) ?? []);
    return {
      records: format === "prometheus" ? counts.records : (set?.series.length ?? 0),
      skipped: counts.skipped,
      warnings: warnings.toList(),
      meta: {
        series: set?.series.length ?? 0,
        endpoints: endpoints.size,
        lifetimeCounters: format === "prometheus",
      },
    };
  }

  async function finish(): Promise<AnalyzerResult> {
    const result = summarizeAll();
    // Everything is folded into the result: the series and their interval columns can go before
    // the run is stored (the caller keeps this analyzer until then).
    for (const f of Object.keys(sets) as ExportFormat[]) sets[f].set = emptyMetricSet();
    return result;
  }

  /** The JSONL scrapes cut to the profiling phase, once every file of the run is read. */
  function cutJsonl(): void {
    for (const scrapes of scrapeLogs) {
      mergeMetricSets(sets.jsonl.set, cutScrapes(scrapes, clock.resolve(scrapeSpan(scrapes))));
    }
    scrapeLogs.length = 0;
  }

  function summarizeAll(): AnalyzerResult {
    cutJsonl();
    const chosen = PREFERENCE.find((f) => sets[f].files.length > 0);
    const warnings: string[] = [];
    const set = emptyMetricSet();
    if (chosen) mergeMetricSets(set, sets[chosen].set);
    for (const f of PREFERENCE)
      if (f !== chosen && sets[f].files.length > 0)
        warnings.push(
          `server metrics: ${sets[f].files.join(", ")} not counted; the ${chosen} export of the same scrapes is used`,
        );
    mergeMetricSets(set, sets.prometheus.set);
    if (set.series.length === 0 && logs.length === 0) {
      const facts = withLogFacts({}, logFacts.result());
      const routerOnly = routerLogResult([]);
      const logConfig = logFacts.runConfig();
      return {
        ...routerOnly,
        ...(Object.keys(facts).length > 0 ? { facts } : {}),
        ...(Object.keys(logConfig).length > 0 ? { info: { ...routerOnly.info, ...logConfig } } : {}),
      };
    }
    if ([...set.windows.values()].some((w) => w.source.startsWith(SCRAPE_SPAN_PREFIX)))
      warnings.push(
        "server metrics: no profiling phase found, so counters are deltas over the whole scrape span (baseline and warmup included); upload profile_export_aiperf.json or profile_export.jsonl beside the export to count the profiling phase only",
      );
    const summary = summarizeServerMetrics(set, logs);
    if (chosen === "jsonl" && summary.block.kvCache.gpuTotalTokens === null) {
      const w = jsonlCapacityWarning(summary.facts);
      if (w) warnings.push(w);
    }
    const info = {
      ...summary.info,
      ...servingConfig(
        vllmRunConfig(set.series.filter((x) => x.name === VLLM_CACHE_CONFIG_INFO).map((x) => x.labels)),
        logFacts.runConfig(),
      ),
    };
    if (sets.prometheus.files.length > 0) info.serverMetricsPrometheusScrapes = sets.prometheus.files.length;
    if (chosen) info.serverMetricsExport = chosen;
    const backend = summary.block.backend ?? logs[0]?.engine ?? null;
    const charts = set.series.length > 0 ? buildServerMetricsCharts(summary) : {};
    Object.assign(
      info,
      routerRunInfo((charts[SM_CHARTS.router.key] as RouterPredictionPayload | undefined) ?? null),
    );
    const fromLog = routerLogResult(summary.facts);
    Object.assign(charts, fromLog.charts);
    Object.assign(info, fromLog.info);
    const engines = prefillSide(summary.facts);
    cache.engines = engines.map((f) => ({
      endpoint: f.endpoint,
      role: f.role,
      den: f.counts?.den ?? null,
      gpu: f.counts?.gpu ?? null,
      host: f.counts?.host ?? null,
      ext: f.counts?.ext ?? null,
    }));
    cache.served = servedIntervals(engines);
    cache.sources = cache.served?.sources ?? [];
    cache.routerHistogram = (charts[SM_CHARTS.router.key] as RouterPredictionPayload | undefined) ?? null;
    const served = feed.requests ? cache.served : null;
    const stack = served && feed.requests ? reuseIntervals(served, feed.requests) : null;
    if (stack) {
      stack.endpoints = servedIntervalsByEndpoint(prefillSide(summary.facts)).map((e) =>
        endpointReuseIntervals(e.endpoint, e.served),
      );
      charts[REUSE_INTERVALS_CHART.key] = stack;
      // The Turns view's reuse-over-time section reads this.
      info.reuseIntervals = stack.points.length;
    }
    return {
      serverMetrics: { ...summary.block, backend },
      endpoints: summary.rows,
      info,
      charts,
      warnings: [...warnings, ...summary.warnings],
      backend,
      facts: withLogFacts(
        serverMetricsFacts(set.series, summary.rows, summary.block.backend),
        logFacts.result(),
      ),
    };
  }

  /** The router log's decisions beside the engines (none without a router log in the upload). */
  function routerLogResult(facts: Parameters<typeof buildRouterLogPrediction>[1]): AnalyzerResult {
    const payload = buildRouterLogPrediction(routed, facts);
    cache.routerLog = payload;
    if (!payload) return {};
    const info: Record<string, number | boolean> = { routerLog: true };
    if (payload.predicted !== null) info.routerLogPredictedHitRate = payload.predicted;
    return { charts: { [ROUTER_LOG_CHART.key]: payload }, info };
  }

  return {
    name: "server-metrics",
    tables: [],
    accepts: (file) => file.kind === "aiperf-server-metrics" || file.kind === "server-log",
    ingestFile,
    finish,
  };
}

/**
 * vLLM's configuration from its metrics (`cache_config_info`) and from its log (non-default args,
 * engine line). The metrics' KV cache stands; the log's KV connector (`--kv-transfer-config`),
 * which `kv_offloading_size` does not show, wins over the metrics' offload entry when the log
 * names one.
 */
function servingConfig(metrics: RunConfigInfo, log: RunConfigInfo): RunConfigInfo {
  const out: RunConfigInfo = { ...log, ...metrics };
  const logNamesConnector =
    typeof log.kvOffloadConfig === "string" && /(^|, )kv_connector=/.test(log.kvOffloadConfig);
  if (logNamesConnector) {
    out.kvOffloadConfig = log.kvOffloadConfig;
    out.kvOffloadConfigSource = log.kvOffloadConfigSource;
  }
  return out;
}
