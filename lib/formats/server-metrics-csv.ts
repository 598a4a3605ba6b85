/**
 * aiperf `server_metrics_export.csv` (docs/formats.md §Server metrics) → MetricSet. Sections (gauge,
 * counter, histogram, then a transposed info section) each have their own header, and label
 * columns differ per section, so every section is read with its own header. Floats are written
 * with 4 decimals: numbers from the CSV agree with the JSON to 1e-4 only.
 */
import type { Readable } from "node:stream";
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import {
  canonicalName,
  emptyMetricSet,
  type MetricSet,
  type MetricType,
} from "@/lib/formats/server-metrics/types";
import { splitCsvRecord } from "./csv";
import type { WarningLog } from "./json-lines";
import { readLines } from "./read-lines";
import { dropBadSeries } from "./server-metrics/bad-values";
import { toNumber } from "./server-metrics-json";

const STAT_KEY =
  /^(avg|min|max|std|p\d+(_estimate)?|total|rate|rate_(avg|min|max|std)|count|count_rate|sum|sum_rate)$/;

interface Section {
  kind: "typed" | "info";
  header: string[];
}

export async function readServerMetricsCsv(stream: Readable, warnings: WarningLog): Promise<MetricSet> {
  const set = emptyMetricSet();
  /** Info series per (endpoint, family), in order; see the info branch below for how they are told apart. */
  const info = new Map<string, { endpoint: string; name: string; labels: Record<string, string> }[]>();
  let section: Section | null = null;
  let pending = "";
  let pendingLine = 0;
  for await (const { lineNo, text } of readLines(stream)) {
    const joined = pending === "" ? text : `${pending}\n${text}`;
    if (pending === "") pendingLine = lineNo;
    if (pending === "" && (text.trim() === "" || text.startsWith("#"))) {
      if (text.trim() === "") section = null;
      continue;
    }
    const cells = splitCsvRecord(joined);
    if (cells === null) {
      pending = joined;
      continue;
    }
    pending = "";
    if (cells[0] === "Endpoint") {
      section = { kind: cells[1] === "Metric" && cells[2] === "Key" ? "info" : "typed", header: cells };
      continue;
    }
    if (!section) {
      warnings.add("skipped line: data row before any section header", pendingLine);
      continue;
    }
    const row: Record<string, string> = {};
    section.header.forEach((h, i) => (row[h] = cells[i] ?? ""));
    if (section.kind === "info") {
      const endpoint = normalizeEndpoint(row.Endpoint);
      const key = `${endpoint}\u0000${row.Metric}`;
      // aiperf writes one row per label and nothing between series: a label seen again for the
      // same endpoint and family starts the next series (e.g. the second engine's cache config).
      const list = info.get(key) ?? [];
      let entry = list.at(-1);
      if (!entry || row.Key in entry.labels) {
        entry = { endpoint, name: row.Metric, labels: {} };
        list.push(entry);
      }
      entry.labels[row.Key] = row.Value;
      info.set(key, list);
      continue;
    }
    // aiperf's fourth type, "unknown" (an untyped Prometheus family), carries gauge-shaped
    // statistics (ai-dynamo/aiperf docs/server-metrics/server-metrics-json-schema.md).
    const type = (row.Type === "unknown" ? "gauge" : row.Type) as MetricType;
    if (type !== "gauge" && type !== "counter" && type !== "histogram") {
      warnings.add(`skipped line: unknown metric type "${row.Type}"`, pendingLine);
      continue;
    }
    const stats: Record<string, number> = {};
    const labels: Record<string, string> = {};
    for (const h of section.header.slice(4)) {
      if (h === "Description" || h === "buckets") continue;
      const v = row[h];
      if (STAT_KEY.test(h)) {
        const n = toNumber(v);
        if (n !== null) stats[h] = n;
      } else if (v !== "") labels[h] = v;
    }
    set.series.push({
      name: canonicalName(row.Metric),
      type,
      endpoint: normalizeEndpoint(row.Endpoint),
      labels,
      stats,
    });
  }
  if (pending !== "")
    warnings.add("skipped line: unterminated quoted field at the end of the file", pendingLine);
  for (const list of info.values()) for (const e of list) set.series.push({ ...e, type: "info", stats: {} });
  set.series = dropBadSeries(set.series, (m) => warnings.count(m));
  return set;
}
