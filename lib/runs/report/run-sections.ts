/** The summary parts of a run's report: facts, files, statistics tables; pure over the run summary. */
import { collectorTexts } from "@/lib/metrics/collectors-mismatch";
import { latencyLabel, requestWords } from "@/lib/metrics/request-words";
import { latencyName } from "@/lib/api/metric-catalog";
import { headerInfo, infoLabel, infoValue } from "@/lib/metrics/run-info";
import type { RunSummary, Stats } from "@/lib/api/schemas";
import {
  formatBytes,
  formatCount,
  formatDateTime,
  formatFigure,
  formatNumber,
  formatRate,
  plural,
} from "@/lib/format-number";
import { ALTERNATIVE_SEGMENTS } from "@/lib/metrics/time-breakdown";
import { segmentWords } from "@/lib/metrics/segment-words";
import type { Section, Table } from "./html";

export function summarySection(run: RunSummary, generatedAt: string): Section {
  const facts: Array<[string, string]> = [
    ["run id", run.id],
    ["uploaded", formatDateTime(run.createdAt)],
    ["report written", formatDateTime(generatedAt)],
    ["labels", run.labels.length > 0 ? run.labels.join(", ") : "none"],
    // TensorRT-LLM settings: only on a run whose files could say them, as the run header shows them.
    ...collectorTexts(run).map(({ flag, text }): [string, string] => [flag, text]),
  ];
  // As the run header lists them (lib/metrics/run-info.ts): in words, sources said in words.
  for (const [k, v] of headerInfo(run.info, () => false)) facts.push([infoLabel(k), infoValue(k, v)]);
  const files: Table = {
    columns: ["file", "kind", "format", "size", "records", "skipped"],
    rows: run.files.map((f) => [
      f.name,
      f.kind,
      f.format,
      formatBytes(f.bytes),
      formatCount(f.records),
      formatCount(f.skipped),
    ]),
  };
  const blocks: Section["blocks"] = [
    { kind: "facts", facts },
    { kind: "table", title: "Files", table: files },
  ];
  const warnings = [
    ...run.warnings,
    ...run.files.flatMap((f) => f.warnings.map((w) => `${f.name}: ${w.message}`)),
  ];
  for (const w of warnings.slice(0, 20)) blocks.push({ kind: "note", text: `Warning: ${w}` });
  if (warnings.length > 20)
    blocks.push({ kind: "note", text: `… and ${formatCount(warnings.length - 20)} more warnings` });
  return { id: "summary", title: "Summary", blocks, figures: [] };
}

const statRow = (label: string, unit: string, s: Stats | null): string[] =>
  s === null
    ? [label, unit, "not recorded", "", "", "", "", ""]
    : [
        label,
        unit,
        formatCount(s.count),
        formatNumber(s.mean, 3),
        formatNumber(s.p50, 3),
        formatNumber(s.p90, 3),
        formatNumber(s.p99, 3),
        formatNumber(s.max, 3),
      ];

const STAT_COLUMNS = ["metric", "unit", "count", "mean", "p50", "p90", "p99", "max"];

/** The Latency view's statistics tables: aiperf's requests block and the perf metrics' own latency. */
export function latencyTables(run: RunSummary): Section["blocks"] {
  const out: Section["blocks"] = [];
  const r = run.requests;
  if (r) {
    out.push({
      kind: "table",
      title: `Request latency (${r.source === "tool-summary" ? `${requestWords(run).producer}'s own figures` : r.source}: ${plural(r.count, "request")}, ${plural(r.errorCount, "error")})`,
      table: {
        columns: STAT_COLUMNS,
        rows: [
          statRow(latencyLabel(run, "ttftMs"), "ms", r.ttftMs),
          statRow(latencyLabel(run, "e2eMs"), "ms", r.e2eMs),
          statRow(latencyLabel(run, "itlMs"), "ms", r.itlMs),
          statRow("Input length", "tokens", r.inputTokens),
          statRow("Output length", "tokens", r.outputTokens),
        ],
      },
    });
    const rates: Array<[string, string]> = [];
    // At the figure's own decimals, as the Overview tile and Compare write it (194.51 tok/s, 0.973 req/s).
    if (r.requestThroughputPerS != null)
      rates.push(["request throughput", `${formatFigure(r.requestThroughputPerS, "req/s")} req/s`]);
    if (r.outputTokenThroughputPerS != null)
      rates.push(["output token throughput", `${formatFigure(r.outputTokenThroughputPerS, "tok/s")} tok/s`]);
    if (r.durationS !== null) rates.push(["duration", `${formatNumber(r.durationS, 2)} s`]);
    if (rates.length > 0) out.push({ kind: "facts", facts: rates });
  }
  const l = run.timeBreakdown?.latency;
  if (l)
    out.push({
      kind: "table",
      title: "Request latency from the perf metrics",
      table: {
        columns: STAT_COLUMNS,
        rows: [
          statRow(latencyName("ttftMs"), "ms", l.ttftMs),
          statRow(latencyName("e2eMs"), "ms", l.e2eMs),
          statRow(latencyName("tpotMs"), "ms", l.tpotMs),
        ],
      },
    });
  return out;
}

/**
 * A segment no request recorded because every request recorded its alternative instead (`gen_queue`
 * beside the three transfer spans) is not missing data, and the view leaves it out: so does the report.
 */
function unusedAlternative(name: string, segments: ReadonlyArray<{ name: string; count: number }>): boolean {
  const counted = (n: string) => (segments.find((s) => s.name === n)?.count ?? 0) > 0;
  return !counted(name) && (ALTERNATIVE_SEGMENTS[name] ?? []).some(counted);
}

export function breakdownTables(run: RunSummary): Section["blocks"] {
  const tb = run.timeBreakdown;
  if (!tb) return [];
  const cellMs = (v: number | null | undefined) =>
    v === null || v === undefined ? "not recorded" : formatNumber(v, 3);
  return [
    {
      kind: "table",
      title: `Segments (${tb.mode}, ${plural(tb.requestCount, "request")})`,
      table: {
        // The segment in words, as the Breakdown view's table names it; the upstream span name last,
        // a column of its own, as the view writes it under the words and the figures' tables do.
        columns: [
          "segment",
          "what it is",
          "recorded in",
          "mean ms",
          "p50 ms",
          "p90 ms",
          "p99 ms",
          "upstream name",
        ],
        rows: tb.segments
          .filter((s) => !unusedAlternative(s.name, tb.segments))
          .map((s) => [
            segmentWords(s.name),
            s.label,
            formatCount(s.count),
            cellMs(s.meanMs),
            cellMs(s.p50Ms),
            cellMs(s.p90Ms),
            cellMs(s.p99Ms),
            s.name,
          ]),
      },
    },
  ];
}

export function endpointTables(run: RunSummary): Section["blocks"] {
  if (run.endpoints.length === 0) return [];
  return [
    {
      kind: "table",
      title: "Endpoints",
      table: {
        columns: [
          "endpoint",
          "role",
          "cache hit rate",
          "KV hit rate",
          "KV capacity (tokens)",
          "KV usage avg",
          "requests",
        ],
        rows: run.endpoints.map((e) => [
          e.endpoint,
          e.role,
          e.cacheHitRate === null ? "not exported" : formatRate(e.cacheHitRate),
          e.kvCacheHitRate === null ? "not recorded" : formatRate(e.kvCacheHitRate),
          e.kvCapacityTokens === null ? "not exported" : formatCount(e.kvCapacityTokens),
          e.kvUsageAvg === null ? "not exported" : formatRate(e.kvUsageAvg),
          e.requestCount === null ? "—" : formatCount(e.requestCount),
        ]),
      },
    },
  ];
}
